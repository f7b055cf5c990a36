/**
 * A job's raw terminal output on disk: appended in batches (not per chunk), capped at `maxBytes`,
 * then rotated to `<path>.1` (one older file kept), so a chatty job never fills the disk.
 */
import { closeSync, fstatSync, mkdirSync, openSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";

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

  constructor(
    private readonly path: string,
    private readonly maxBytes: number,
  ) {}

  append(data: string): void {
    if (this.failed) return;
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

  close(): void {
    this.flush();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private open(): number {
    if (this.fd === null) {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
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
