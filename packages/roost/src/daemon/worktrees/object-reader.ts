/**
 * Files as a commit has them, read through one long-lived `git cat-file --batch` per repository: a
 * worktree's row follows an edit by comparing the file with its version at the base, and a git
 * started for each of fifty busy worktrees would cost more than the agents' work.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { gitProgram } from "./git.js";

interface Asked {
  resolve: (content: Buffer | null) => void;
  reject: (err: Error) => void;
}

export class ObjectReader {
  private child: ChildProcessWithoutNullStreams | null = null;
  private readonly asked: Asked[] = [];
  private buffered = Buffer.alloc(0);

  constructor(private readonly repository: string) {}

  /** `path` as `commit` has it, or null when it has no such file (or it is not a file). */
  read(commit: string, path: string): Promise<Buffer | null> {
    // A line break would end the request early: such a path is read as absent, and the caller
    // reads the whole worktree from git instead.
    if (/[\n\r]/.test(path)) return Promise.reject(new Error("a path with a line break"));
    const child = this.running();
    return new Promise((resolve, reject) => {
      this.asked.push({ resolve, reject });
      child.stdin.write(`${commit}:${path}\n`);
    });
  }

  close(): void {
    this.child?.stdin.end();
    this.child?.kill();
    this.child = null;
  }

  private running(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const child = spawn(gitProgram(), ["cat-file", "--batch"], { cwd: this.repository });
    this.child = child;
    this.buffered = Buffer.alloc(0);
    child.stdout.on("data", (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.answer();
    });
    const failed = (err: Error) => {
      if (this.child === child) this.child = null;
      for (const asked of this.asked.splice(0)) asked.reject(err);
    };
    child.on("error", failed);
    child.on("exit", () => failed(new Error("git cat-file ended")));
    child.stdin.on("error", () => {});
    return child;
  }

  /** Answers what the buffer holds whole: `missing` lines, or a header and that many bytes. */
  private answer(): void {
    for (;;) {
      const eol = this.buffered.indexOf(10);
      if (eol === -1) return;
      const header = this.buffered.subarray(0, eol).toString("utf8");
      const asked = this.asked[0];
      if (!asked) return;
      const fields = header.split(" ");
      if (fields.length !== 3) {
        // `<name> missing` (or ambiguous): no such file there.
        this.buffered = this.buffered.subarray(eol + 1);
        this.asked.shift();
        asked.resolve(null);
        continue;
      }
      const size = Number(fields[2]);
      if (this.buffered.length < eol + 1 + size + 1) return;
      const content = Buffer.from(this.buffered.subarray(eol + 1, eol + 1 + size));
      this.buffered = this.buffered.subarray(eol + 1 + size + 1);
      this.asked.shift();
      asked.resolve(fields[1] === "blob" ? content : null);
    }
  }
}
