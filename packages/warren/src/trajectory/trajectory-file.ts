import { randomBytes } from "node:crypto";
import {
  closeSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { TrajectoryError } from "./trajectory-error.js";

/** Steps are written in chunks of about this many characters, not a write per line. */
const CHUNK_CHARS = 1 << 16;

/** Hidden files of this process's trajectories not yet published: removed if it exits first. */
const unpublished = new Set<string>();
let cleanupRegistered = false;

function track(path: string): void {
  if (!cleanupRegistered) {
    cleanupRegistered = true;
    process.once("exit", () => {
      for (const file of unpublished) removeQuietly(file);
    });
  }
  unpublished.add(path);
}

function removeQuietly(path: string): void {
  unpublished.delete(path);
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/** A hidden name beside `path`, this process's own: `*.jsonl` never matches it. */
function hiddenBeside(path: string, suffix: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.${suffix}`);
}

/** `what` cannot be written, and why: a system error in its own words, without the hidden file's name. */
function unwritable(what: string, why: unknown): TrajectoryError {
  const words = typeof why === "string" ? why : (why as Error).message.split(", ")[0];
  return new TrajectoryError("trajectory_unwritable", `cannot write ${what}: ${words}`);
}

/** Creates the folder if need be and checks a file can be written in it; throws trajectory_unwritable. */
export function checkWritableFolder(dir: string): void {
  let probe: string | undefined;
  try {
    mkdirSync(dir, { recursive: true });
    probe = hiddenBeside(join(dir, "probe"), "probe");
    closeSync(openSync(probe, "wx"));
  } catch (error) {
    throw unwritable(`trajectories in ${dir}`, error);
  } finally {
    if (probe) removeQuietly(probe);
  }
}

/**
 * A trajectory file being written. Its steps go to a hidden file beside it as they come; once the
 * run has ended it appears whole, header first, by a rename: no reader sees half of one, and a
 * run played again (a resumed sweep's) replaces the file rather than adding to it.
 */
export class TrajectoryFile {
  private readonly stepsPath: string;
  private readonly fd: number;
  private pending: string[] = [];
  private pendingChars = 0;
  /** A write that failed as the run played: said when publishing, so the run itself goes on. */
  private failure: unknown;

  /** Throws trajectory_unwritable, before anything is played, when the file cannot be written. */
  constructor(readonly path: string) {
    let folder = false;
    try {
      folder = statSync(path).isDirectory();
    } catch {
      // Not there yet: the usual case.
    }
    if (folder) throw unwritable(`the trajectory ${path}`, "it is a folder");
    this.stepsPath = hiddenBeside(path, "steps");
    try {
      this.fd = openSync(this.stepsPath, "wx");
    } catch (error) {
      throw unwritable(`the trajectory ${path}`, error);
    }
    track(this.stepsPath);
  }

  add(line: object): void {
    if (this.failure !== undefined) return;
    const text = `${JSON.stringify(line)}\n`;
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars < CHUNK_CHARS) return;
    try {
      this.flush();
    } catch (error) {
      this.failure = error;
    }
  }

  /** Writes the header, then the steps, to a hidden file, and renames that to the trajectory's name. */
  publish(header: object): void {
    const whole = hiddenBeside(this.path, "tmp");
    track(whole);
    try {
      this.closeSteps();
      const out = openSync(whole, "wx");
      try {
        writeFileSync(out, `${JSON.stringify(header)}\n`);
        copyInto(this.stepsPath, out);
      } finally {
        closeSync(out);
      }
      renameSync(whole, this.path);
    } catch (error) {
      throw unwritable(`the trajectory ${this.path}`, error);
    } finally {
      removeQuietly(whole);
      removeQuietly(this.stepsPath);
    }
  }

  /** Writes the last steps and closes their file; a write that failed as the run played is thrown now. */
  private closeSteps(): void {
    try {
      if (this.failure === undefined) this.flush();
    } finally {
      closeSync(this.fd);
    }
    if (this.failure !== undefined) throw this.failure;
  }

  // writeFileSync on a descriptor writes all it is given, at the descriptor's position.
  private flush(): void {
    if (this.pending.length === 0) return;
    writeFileSync(this.fd, this.pending.join(""));
    this.pending = [];
    this.pendingChars = 0;
  }
}

/** Appends the file at `from` to the open file `to`, a chunk at a time. */
function copyInto(from: string, to: number): void {
  const chunk = Buffer.alloc(1 << 20);
  const source = openSync(from, "r");
  try {
    for (let read = readSync(source, chunk); read > 0; read = readSync(source, chunk)) {
      writeFileSync(to, chunk.subarray(0, read));
    }
  } finally {
    closeSync(source);
  }
}
