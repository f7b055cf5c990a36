import { type ChildProcess, fork } from "node:child_process";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { BATCH_TARGET_MS, batchesInHand, batchSize, nextMeanRunMs } from "./run-batches.js";
import type { RunRecord } from "./run-record.js";
import type { RunSpec } from "./sweep-plan.js";

/** The pool to a process: runs to play, in order, after those it already holds. */
export interface PoolRequest {
  runs: RunSpec[];
}

export type PoolResult = { key: string; record: RunRecord } | { key: string; error: string };

/** A process to the pool: a request's runs played, in order, and how long they kept it busy. */
export interface PoolReply {
  results: PoolResult[];
  busy_ms: number;
}

interface Task {
  spec: RunSpec;
  resolve(record: RunRecord): void;
  reject(error: Error): void;
  /**
   * Lost with a process that held other runs too: which of them brought it down is not known, so
   * each is played again on a process holding nothing else.
   */
  alone?: boolean;
}

interface Member {
  process: ChildProcess;
  /** Runs sent and not yet reported, in the order the process plays them. */
  inHand: Task[];
  /** Batches sent and not yet answered. */
  batches: number;
}

// Run from source (tsx) the entry is the .ts file beside this one; built, the .js file.
const ENTRY = fileURLToPath(
  new URL(import.meta.url.endsWith(".ts") ? "./pool-process.ts" : "./pool-process.js", import.meta.url),
);

/**
 * The Node options of each of `size` processes playing runs. V8's helper threads (concurrent
 * compilation and garbage collection) add about a fifth to a run's CPU: while cores are left over
 * they make a process faster, but once the processes fill the cores they only take time from the
 * runs (measured: two processes on two cores play about 8 % more runs each with one thread).
 */
export function processArgv(size: number): string[] {
  return size >= availableParallelism() ? [...process.execArgv, "--single-threaded"] : process.execArgv;
}

/**
 * Processes that play runs in parallel, each one run at a time (short runs are sent in batches,
 * see run-batches.ts): a run's CPU never slows the caller's event loop (a queue worker keeps
 * renewing its locks), and a run that brings its process down fails that run alone; the process
 * is replaced.
 */
export class RunPool {
  private readonly members: Member[] = [];
  private readonly waiting: Task[] = [];
  private meanRunMs: number | undefined;
  private closed = false;
  private sent = 0;
  private busy = 0;
  private readonly execArgv: string[];

  constructor(
    readonly size: number,
    /** The play time a batch of short runs aims at (run-batches.ts). */
    private readonly batchTargetMs = BATCH_TARGET_MS,
  ) {
    if (!Number.isInteger(size) || size < 1)
      throw new Error(`a pool needs at least one process (got ${size})`);
    this.execArgv = processArgv(size);
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

  /** Batches sent to the processes so far: runs over batches is how well batching works. */
  get batchesSent(): number {
    return this.sent;
  }

  /** Wall ms the processes have spent playing runs, as they report it; the rest they waited for work. */
  get busyMs(): number {
    return this.busy;
  }

  /** The processes' ids, to watch what they cost. */
  get pids(): number[] {
    return this.members.flatMap((m) => m.process.pid ?? []);
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
    const child = fork(ENTRY, [], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      execArgv: this.execArgv,
    });
    const member: Member = { process: child, inHand: [], batches: 0 };
    child.on("message", (reply: PoolReply) => this.settle(member, reply));
    child.once("exit", (code, signal) => {
      const lost = member.inHand.splice(0);
      const error = (task: Task): Error =>
        new Error(`the run's process exited (${signal ?? `code ${code}`}) while playing ${task.spec.key}`);
      if (this.closed || lost.length === 1) for (const task of lost) task.reject(error(task));
      else this.waiting.unshift(...lost.map((task) => ({ ...task, alone: true })));
      if (this.closed) return;
      this.members[this.members.indexOf(member)] = this.spawn();
      this.dispatch();
    });
    return member;
  }

  private settle(member: Member, reply: PoolReply): void {
    member.batches--;
    for (const result of reply.results) {
      const at = member.inHand.findIndex((task) => task.spec.key === result.key);
      if (at < 0) continue;
      const [task] = member.inHand.splice(at, 1);
      if ("record" in result) task!.resolve(result.record);
      else task!.reject(new Error(result.error));
    }
    this.busy += reply.busy_ms;
    if (reply.results.length > 0) {
      this.meanRunMs = nextMeanRunMs(this.meanRunMs, reply.results.length, reply.busy_ms);
    }
    this.dispatch();
  }

  private dispatch(): void {
    // Idle processes first: a run never waits behind another while a process has nothing.
    const leastHeld = [...this.members].sort((a, b) => a.batches - b.batches);
    for (const member of leastHeld) {
      if (this.waiting.length === 0) return;
      if (!member.process.connected || member.inHand.some((task) => task.alone)) continue;
      if (this.waiting[0]!.alone) {
        if (member.inHand.length === 0) this.send(member, this.waiting.splice(0, 1));
        continue;
      }
      if (member.batches >= batchesInHand(this.meanRunMs)) continue;
      const batch = batchSize(this.meanRunMs, this.waiting.length, this.members.length, this.batchTargetMs);
      this.send(member, this.waiting.splice(0, batch));
    }
  }

  private send(member: Member, tasks: Task[]): void {
    member.inHand.push(...tasks);
    member.batches++;
    this.sent++;
    member.process.send({ runs: tasks.map((task) => task.spec) } satisfies PoolRequest);
  }
}
