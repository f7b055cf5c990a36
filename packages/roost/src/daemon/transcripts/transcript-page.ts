/**
 * One page of a transcript, read from a cursor: the record's lines from where the last page ended,
 * made entries by the program's format, until the page holds `limit` entries or its JSON would pass
 * `LIMITS.transcriptBytes` (that entry waits for the next page), or `READ_BUDGET_BYTES` of the record
 * have been read. A line cut short (still being written) is left for the next page; a line that is
 * not JSON, or of a kind the format does not know, makes no entry. A page's entries are in the
 * order of their times: Claude Code writes a conversation's first message after the answer to it.
 */
import { LIMITS, RoostError, type TranscriptEntry } from "../../protocol/index.js";
import { AppendedLines, type ReadPlace } from "../conversations/appended-lines.js";
import { parsedLine } from "../conversations/session-record.js";

/** A record's lines as entries (each line alone: a page may start at any line). */
export type TranscriptFormat = (line: Record<string, unknown>) => TranscriptEntry[];

/** One page reads about this much of the record at most (a line is never cut): a huge record is paged. */
export const READ_BUDGET_BYTES = 8 * 1024 * 1024;

/** Where a page starts: a line's start in the record of an inode, and how many of its entries were given. */
interface Cursor extends ReadPlace {
  skip: number;
}

export interface TranscriptPage {
  entries: TranscriptEntry[];
  cursor: string;
  more: boolean;
  restarted: boolean;
  /** The record was not there to read. */
  missing: boolean;
}

export function parseCursor(text: string | null | undefined): Cursor | null {
  if (!text) return null;
  const [inode, offset, skip] = text.split(":").map(Number);
  if (![inode, offset, skip].every((n) => Number.isSafeInteger(n)))
    throw new RoostError("bad_request", "after must be a cursor a transcript answer gave");
  return { inode: inode!, offset: offset!, skip: skip! };
}

/** The entries by their times, in the record's order where they are the same (no time: the one before's). */
function byTime(entries: TranscriptEntry[]): TranscriptEntry[] {
  let last = "";
  const timed = entries.map((entry, i) => {
    last = entry.at !== null ? new Date(entry.at).toISOString() : last;
    return { entry, at: last, i };
  });
  timed.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.i - b.i));
  return timed.map((t) => t.entry);
}

function cursorText(inode: number | null, offset: number, skip: number): string {
  return inode === null ? "" : `${inode}:${offset}:${skip}`;
}

export async function readPage(
  file: string,
  format: TranscriptFormat,
  after: Cursor | null,
  limit: number,
): Promise<TranscriptPage> {
  const lines = new AppendedLines(file, after ?? undefined);
  const entries: TranscriptEntry[] = [];
  let bytes = 0;
  let restarted = false;
  let start = after?.offset ?? 0;
  // Where the next page starts: the line being made entries, and how many of them this page has.
  let offset = after?.offset ?? 0;
  let skip = after?.skip ?? 0;
  const page = (more: boolean, missing = false): TranscriptPage => ({
    entries: byTime(entries),
    cursor: cursorText(lines.inode, offset, skip),
    more,
    restarted,
    missing,
  });
  for (;;) {
    const read = lines.read();
    if (read === null) return page(false, true);
    if (read.restarted) {
      entries.length = 0;
      bytes = 0;
      offset = 0;
      skip = 0;
      start = 0;
      restarted = true;
    }
    for (let i = 0; i < read.lines.length; i++) {
      const value = parsedLine(read.lines[i]!);
      const made = value === null ? [] : format(value);
      for (; skip < made.length; skip++) {
        const size = Buffer.byteLength(JSON.stringify(made[skip]));
        if (entries.length === limit || (entries.length > 0 && bytes + size > LIMITS.transcriptBytes))
          return page(true);
        entries.push(made[skip]!);
        bytes += size;
      }
      offset = read.ends[i]!;
      skip = 0;
    }
    offset = read.at;
    if (!read.more) return page(false);
    // Read far enough for one page: the rest is the next's (a line read whole always moves it on).
    if (offset - start >= READ_BUDGET_BYTES) return page(true);
  }
}
