/**
 * A JSON-lines file read as it grows: each read returns only the whole lines appended since the
 * last, keeping a line cut short (still being written) for the next read. A file that shrank or was
 * replaced is read again from its start, and says so. Reads are synchronous: a record is a local
 * file taken a bounded piece at a time, and the thread pool's round trips cost more than the reads
 * (the daemon's CPU for 100 growing records fell by almost half); callers yield between pieces. A
 * reading may start where an earlier one stopped (a transcript's cursor): at a line's start, in the
 * file that inode names.
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";

/** At most this much is read at one time: a huge record is taken up over several reads. */
export const READ_CHUNK_BYTES = 1024 * 1024;
/** A line longer than this is skipped whole (never held in memory past it). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

const NEWLINE = 0x0a;

/** Where a reading starts: a line's first byte, in the file of that inode. */
export interface ReadPlace {
  offset: number;
  inode: number;
}

export interface AppendedRead {
  lines: string[];
  /** The byte offset just past each line (its newline). */
  ends: number[];
  /** The offset of the first line not taken whole yet (cut short, or still being skipped): where to start again. */
  at: number;
  /** The file was read again from its start: whatever was taken of it before is void. */
  restarted: boolean;
  /** More is appended than one read takes: read again soon. */
  more: boolean;
}

export class AppendedLines {
  private offset: number;
  /** Where the line being read began. */
  private lineStart: number;
  private partial: Buffer[] = [];
  private partialBytes = 0;
  /** Inside a line over the limit: everything up to its end is dropped. */
  private skipping = false;
  private fileInode: number | null;

  constructor(
    readonly file: string,
    from?: ReadPlace,
  ) {
    this.offset = from?.offset ?? 0;
    this.lineStart = this.offset;
    this.fileInode = from?.inode ?? null;
  }

  /** The inode of the file read last (null before the first read). */
  get inode(): number | null {
    return this.fileInode;
  }

  /** The lines appended since the last read; null when the file is not there (or not readable) now. */
  read(): AppendedRead | null {
    const info = statSync(this.file, { throwIfNoEntry: false });
    if (!info?.isFile()) return null;
    let restarted = false;
    if ((this.fileInode !== null && info.ino !== this.fileInode) || info.size < this.offset) {
      this.offset = 0;
      this.lineStart = 0;
      this.partial = [];
      this.partialBytes = 0;
      this.skipping = false;
      restarted = true;
    }
    this.fileInode = info.ino;
    if (info.size === this.offset) return { lines: [], ends: [], at: this.lineStart, restarted, more: false };
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
    const base = this.offset;
    this.offset += got;
    const { lines, ends } = this.split(chunk.subarray(0, got), base);
    return { lines, ends, at: this.lineStart, restarted, more: this.offset < info.size };
  }

  /** `chunk` read at offset `base`: its whole lines, and where each ends. */
  private split(chunk: Buffer, base: number): { lines: string[]; ends: number[] } {
    const lines: string[] = [];
    const ends: number[] = [];
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, end);
      const whole = !this.skipping && this.partialBytes + piece.length <= MAX_LINE_BYTES;
      if (whole) {
        lines.push(Buffer.concat([...this.partial, piece]).toString("utf8"));
        ends.push(base + end + 1);
      }
      this.lineStart = base + end + 1;
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
    return { lines, ends };
  }
}
