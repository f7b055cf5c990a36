/**
 * A job's raw terminal output on disk: appended in batches (not per chunk), capped at `maxBytes`,
 * then rotated to `<path>.1` (one older file kept), so a chatty job never fills the disk.
 * It never makes its folder: a folder that is gone belongs to a removed job, and stays gone.
 */
import { closeSync, fstatSync, openSync, renameSync, writeSync } from "node:fs";

/** How long output waits in memory before it is written (it is written sooner past `flushBytes`). */
const FLUSH_DELAY_MS = 100;
const FLUSH_BYTES = 64 * 1024;

export const DEFAULT_LOG_MAX_BYTES = 1024 * 1024;

export class OutputLog {
  private fd: number | null = null;
  private size = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private failed = false;
  /** Ended for good: output that still comes (read out after the process exited) is dropped. */
  private ended = false;

  constructor(
    private readonly path: string,
    private readonly maxBytes: number,
  ) {}

  append(data: string): void {
    if (this.failed || this.ended) return;
    const bytes = Buffer.from(data, "utf8");
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_DELAY_MS);
  }

  /** Writes what waits, rotating as often as the cap asks. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pendingBytes === 0 || this.failed) return;
    let data = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    try {
      while (data.length > 0) {
        const fd = this.open();
        if (this.size >= this.maxBytes) {
          this.rotate();
          continue;
        }
        const piece = data.subarray(0, this.maxBytes - this.size);
        writeSync(fd, piece);
        this.size += piece.length;
        data = data.subarray(piece.length);
      }
    } catch (err) {
      // A full or vanished disk must not take the job down: the screen model still has the output.
      this.failed = true;
      console.error(`terminal log ${this.path}: ${(err as Error).message}; not logging this job any more`);
    }
  }

  /** Writes what waits and lets go of the file; a later append opens it again. */
  close(): void {
    this.flush();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  /** Closes the log for good: nothing is written into the job's folder after this. */
  end(): void {
    this.close();
    this.ended = true;
  }

  private open(): number {
    if (this.fd === null) {
      this.fd = openSync(this.path, "a", 0o600);
      this.size = fstatSync(this.fd).size;
    }
    return this.fd;
  }

  private rotate(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    renameSync(this.path, `${this.path}.1`);
  }
}
