/**
 * A JSON-lines file read as it grows: each read returns only the whole lines appended since the
 * last, keeping a line cut short (still being written) for the next read. A file that shrank or was
 * replaced is read again from its start, and says so. Reads are synchronous: a record is a local
 * file taken a bounded piece at a time, and the thread pool's round trips cost more than the reads
 * (the daemon's CPU for 100 growing records fell by almost half); callers yield between pieces.
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";

/** At most this much is read at one time: a huge record is taken up over several reads. */
export const READ_CHUNK_BYTES = 1024 * 1024;
/** A line longer than this is skipped whole (never held in memory past it). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

const NEWLINE = 0x0a;

export interface AppendedRead {
  lines: string[];
  /** The file was read again from its start: whatever was taken of it before is void. */
  restarted: boolean;
  /** More is appended than one read takes: read again soon. */
  more: boolean;
}

export class AppendedLines {
  private offset = 0;
  private partial: Buffer[] = [];
  private partialBytes = 0;
  /** Inside a line over the limit: everything up to its end is dropped. */
  private skipping = false;
  private inode: number | null = null;

  constructor(readonly file: string) {}

  /** The lines appended since the last read; null when the file is not there (or not readable) now. */
  read(): AppendedRead | null {
    const info = statSync(this.file, { throwIfNoEntry: false });
    if (!info?.isFile()) return null;
    let restarted = false;
    if ((this.inode !== null && info.ino !== this.inode) || info.size < this.offset) {
      this.offset = 0;
      this.partial = [];
      this.partialBytes = 0;
      this.skipping = false;
      restarted = true;
    }
    this.inode = info.ino;
    if (info.size === this.offset) return { lines: [], restarted, more: false };
    const length = Math.min(READ_CHUNK_BYTES, info.size - this.offset);
    const chunk = Buffer.alloc(length);
    let got = 0;
    try {
      const fd = openSync(this.file, "r");
      try {
        got = readSync(fd, chunk, 0, length, this.offset);
      } finally {
        closeSync(fd);
      }
    } catch {
      return null;
    }
    this.offset += got;
    return { lines: this.split(chunk.subarray(0, got)), restarted, more: this.offset < info.size };
  }

  private split(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, end);
      const whole = !this.skipping && this.partialBytes + piece.length <= MAX_LINE_BYTES;
      if (whole) lines.push(Buffer.concat([...this.partial, piece]).toString("utf8"));
      this.partial = [];
      this.partialBytes = 0;
      this.skipping = false;
      start = end + 1;
    }
    const rest = chunk.subarray(start);
    if (!this.skipping && rest.length > 0) {
      if (this.partialBytes + rest.length > MAX_LINE_BYTES) {
        this.partial = [];
        this.partialBytes = 0;
        this.skipping = true;
      } else {
        // Copied: the chunk's buffer is not kept past this read.
        this.partial.push(Buffer.from(rest));
        this.partialBytes += rest.length;
      }
    }
    return lines;
  }
}
