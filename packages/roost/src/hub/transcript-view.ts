/**
 * `t`: a job's conversation, full screen: each entry's time and who said it, then its text,
 * wrapped and made safe (it is the agent's); scrolled, and at its end while following.
 */
import { entryBody, entryHeading, type TranscriptEntry, type TranscriptProgram } from "../protocol/index.js";
import { terminalSafe } from "../protocol/terminal-text.js";
import { wrapPlain } from "./ask-lines.js";
import { boxLines } from "./box-view.js";
import type { HubState, JobTranscript, Mode } from "./hub-state.js";
import { clockTime } from "./pane-view.js";
import { bold, cyan, dim, green, grey, magenta, oneLine, red, yellow } from "./style.js";

/** An entry's text starts this far in, under its heading. */
const INDENT = "   ";

const HEADING_STYLE: Record<TranscriptEntry["kind"], (text: string) => string> = {
  user: (text) => bold(cyan(text)),
  assistant: green,
  "tool-call": yellow,
  "tool-result": grey,
  "agent-message": (text) => bold(magenta(text)),
};

/** Each entry's lines for the width they were wrapped to: a frame wraps only entries new to it. */
const wrapped = new WeakMap<TranscriptEntry, { width: number; lines: string[] }>();

function entryLines(entry: TranscriptEntry, program: TranscriptProgram, width: number): string[] {
  const known = wrapped.get(entry);
  if (known?.width === width) return known.lines;
  const style = entry.error ? red : HEADING_STYLE[entry.kind];
  const lines = [` ${dim(clockTime(entry.at))} ${style(oneLine(entryHeading(entry, program)))}`];
  const text = terminalSafe(entryBody(entry), { lines: true });
  for (const line of wrapPlain(text, Math.max(10, width - 2 - INDENT.length))) lines.push(`${INDENT}${line}`);
  wrapped.set(entry, { width, lines });
  return lines;
}

/** The view's body: the entries read, what was left out before them, and why the last read failed. */
export function transcriptBody(transcript: JobTranscript | null, name: string, width: number): string[] {
  if (
    transcript === null ||
    (!transcript.loaded && transcript.error === null && transcript.entries.length === 0)
  )
    return [dim(" asking the daemon…")];
  const body: string[] = [];
  if (transcript.dropped > 0)
    body.push(
      dim(
        ` … ${transcript.dropped} earlier entries not shown here: roost transcript ${oneLine(name)} prints them all`,
      ),
    );
  const program = transcript.program ?? "pi";
  for (const entry of transcript.entries) body.push(...entryLines(entry, program, width));
  if (transcript.error !== null) body.push(red(` ${oneLine(transcript.error)} · trying again`));
  else if (body.length === 0)
    body.push(dim(" nothing in its transcript yet: what its record holds shows here as it comes"));
  return body;
}

/** The transcript box for the job the mode names, `height` lines. */
export function transcriptLines(
  state: HubState,
  mode: Extract<Mode, { kind: "transcript" }>,
  width: number,
  height: number,
): string[] {
  const name = state.rows.get(mode.id)?.name ?? mode.id;
  const transcript = state.transcript?.id === mode.id ? state.transcript : null;
  const program = transcript?.program ? ` (${transcript.program})` : "";
  return boxLines(
    `${bold(oneLine(name))} · transcript${program}`,
    transcriptBody(transcript, name, width),
    width,
    height,
    mode.follow ? Number.MAX_SAFE_INTEGER : mode.scroll,
    mode.follow ? "following · Esc closes" : "End follows · Esc closes",
  );
}
