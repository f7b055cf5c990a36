import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { RunRecord } from "./run-record.js";
import type { RunSpec } from "./sweep-plan.js";

export interface PoolRequest {
  spec: RunSpec;
}

export type PoolReply = { key: string; record: RunRecord } | { key: string; error: string };

interface Task {
  spec: RunSpec;
  resolve(record: RunRecord): void;
  reject(error: Error): void;
}

interface Member {
  process: ChildProcess;
  task?: Task;
}

// Run from source (tsx) the entry is the .ts file beside this one; built, the .js file.
const ENTRY = fileURLToPath(
  new URL(import.meta.url.endsWith(".ts") ? "./pool-process.ts" : "./pool-process.js", import.meta.url),
);

/**
 * Processes that play runs in parallel, one run each at a time: a run's CPU never slows the
 * caller's event loop (a queue worker keeps renewing its locks), and a run that brings its process
 * down fails that run alone; the process is replaced.
 */
export class RunPool {
  private readonly members: Member[] = [];
  private readonly waiting: Task[] = [];
  private closed = false;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1)
      throw new Error(`a pool needs at least one process (got ${size})`);
    for (let i = 0; i < size; i++) this.members.push(this.spawn());
  }

  /** Plays the run on the next free process; rejects if that process dies during it. */
  run(spec: RunSpec): Promise<RunRecord> {
    if (this.closed) return Promise.reject(new Error("the run pool is closed"));
    return new Promise((resolve, reject) => {
      this.waiting.push({ spec, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every process; runs still going are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    const exits = this.members.map(
      (m) =>
        new Promise<void>((resolve) =>
          m.process.exitCode !== null || m.process.signalCode !== null
            ? resolve()
            : m.process.once("exit", () => resolve()),
        ),
    );
    for (const m of this.members) if (m.process.connected) m.process.disconnect();
    for (const task of this.waiting.splice(0)) task.reject(new Error("the run pool closed"));
    await Promise.all(exits);
  }

  private spawn(): Member {
    const child = fork(ENTRY, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    const member: Member = { process: child };
    child.on("message", (reply: PoolReply) => {
      const task = member.task;
      if (!task || task.spec.key !== reply.key) return;
      member.task = undefined;
      if ("record" in reply) task.resolve(reply.record);
      else task.reject(new Error(reply.error));
      this.dispatch();
    });
    child.once("exit", (code, signal) => {
      const task = member.task;
      member.task = undefined;
      task?.reject(
        new Error(`the run's process exited (${signal ?? `code ${code}`}) while playing ${task.spec.key}`),
      );
      if (this.closed) return;
      this.members[this.members.indexOf(member)] = this.spawn();
      this.dispatch();
    });
    return member;
  }

  private dispatch(): void {
    for (const member of this.members) {
      if (this.waiting.length === 0) return;
      if (member.task || !member.process.connected) continue;
      const task = this.waiting.shift()!;
      member.task = task;
      member.process.send({ spec: task.spec } satisfies PoolRequest);
    }
  }
}
