/**
 * Which record a job's transcript is read from: a Claude Code or Codex job's session record (as the
 * usage reader found it, or where its program writes the conversation roost chose the id of), or
 * the session file a pi job's worker reports (it says `transcript`). Any other job keeps none.
 */
import { isAbsolute } from "node:path";
import { RoostError, type TranscriptProgram, type TranscriptResult } from "../../protocol/index.js";
import { recordFile } from "../conversations/job-launch.js";
import type { Job } from "../jobs/job.js";
import { claudeCodeEntries } from "./claude-code-transcript.js";
import { codexEntries } from "./codex-transcript.js";
import { piEntries } from "./pi-transcript.js";
import { parseCursor, readPage, type TranscriptFormat } from "./transcript-page.js";

const FORMATS: Record<TranscriptProgram, TranscriptFormat> = {
  claude: claudeCodeEntries,
  codex: codexEntries,
  pi: piEntries,
};

/** The job's record (null: none written yet), or null when the job keeps no transcript roost reads. */
async function sourceOf(job: Job): Promise<{ program: TranscriptProgram; file: string | null } | null> {
  if (job.conversation)
    return { program: job.conversation.program, file: await recordFile(job, job.conversation) };
  if (!job.capabilities.includes("transcript")) return null;
  const session = job.report?.session ?? null;
  return { program: "pi", file: session !== null && isAbsolute(session) ? session : null };
}

export class Transcripts {
  /** A page of the job's transcript after `after` (a cursor; null: from the start). */
  async page(job: Job, after: string | null, limit: number): Promise<TranscriptResult> {
    const cursor = parseCursor(after);
    const source = await sourceOf(job);
    if (source === null)
      throw new RoostError(
        "unsupported",
        `${job.name} (${job.id}) keeps no transcript roost reads: Claude Code, Codex and pi jobs do`,
      );
    const empty = { program: source.program, file: null, entries: [], more: false, restarted: false };
    if (source.file === null) return { ...empty, cursor: after ?? "" };
    const page = await readPage(source.file, FORMATS[source.program], cursor, limit);
    return {
      program: source.program,
      file: page.missing ? null : source.file,
      entries: page.entries,
      cursor: page.cursor,
      more: page.more,
      restarted: page.restarted,
    };
  }
}
