/**
 * Reads the transcript the view shows: every page the record holds when it opens, then what is new,
 * every `pollMs`, for as long as the view of that job stays open. A read that fails shows why and
 * is tried again (the daemon away, a pi job whose worker has not said it keeps one yet).
 */
import type { TranscriptResult } from "../protocol/transcript.js";
import { errorText } from "./hub-commands.js";
import type { HubConnection } from "./hub-connection.js";
import type { HubState, JobTranscript } from "./hub-state.js";

/** How often an open transcript asks for what is new. */
const POLL_MS = 500;
/** The most entries the view keeps; older ones are left out (`roost transcript` prints them all). */
export const TRANSCRIPT_KEPT = 2000;

export class TranscriptFollower {
  /** Each open makes a new reading; an older one ends at its next turn. */
  private reading = 0;

  constructor(
    private readonly state: HubState,
    private readonly connection: HubConnection,
    private readonly changed: () => void,
    private readonly pollMs = POLL_MS,
  ) {}

  open(id: string): void {
    const reading = ++this.reading;
    const transcript = newTranscript(id);
    this.state.transcript = transcript;
    void this.follow(transcript, reading);
  }

  /** The hub stops: no reading goes on. */
  stop(): void {
    this.reading++;
  }

  private showing(transcript: JobTranscript, reading: number): boolean {
    const mode = this.state.mode;
    return reading === this.reading && mode.kind === "transcript" && mode.id === transcript.id;
  }

  private async follow(transcript: JobTranscript, reading: number): Promise<void> {
    while (this.showing(transcript, reading)) {
      const more = await this.readPage(transcript);
      if (!more) await new Promise((resolve) => setTimeout(resolve, this.pollMs).unref());
    }
    if (this.state.transcript === transcript) this.state.transcript = null;
  }

  /** One page into the view; true when the record holds more already. */
  private async readPage(transcript: JobTranscript): Promise<boolean> {
    if (!this.connection.isConnected) return false;
    let page: TranscriptResult;
    try {
      page = await this.connection.call("transcript", { id: transcript.id, after: transcript.cursor });
    } catch (error) {
      const text = errorText(error);
      if (transcript.error !== text) {
        transcript.error = text;
        this.changed();
      }
      return false;
    }
    if (takePage(transcript, page)) this.changed();
    return page.more;
  }
}

/** A job's transcript before its first page. */
export function newTranscript(id: string): JobTranscript {
  return { id, program: null, entries: [], dropped: 0, cursor: "", loaded: false, error: null };
}

/** A page into what the view has read (the last TRANSCRIPT_KEPT entries kept); true when it shows anything new. */
export function takePage(transcript: JobTranscript, page: TranscriptResult): boolean {
  const news = page.entries.length > 0 || page.restarted || transcript.error !== null || !transcript.loaded;
  if (page.restarted) {
    transcript.entries = [];
    transcript.dropped = 0;
  }
  transcript.program = page.program;
  transcript.entries.push(...page.entries);
  const over = transcript.entries.length - TRANSCRIPT_KEPT;
  if (over > 0) {
    transcript.entries.splice(0, over);
    transcript.dropped += over;
  }
  transcript.cursor = page.cursor;
  transcript.error = null;
  if (!page.more) transcript.loaded = true;
  return news;
}
