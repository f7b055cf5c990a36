import { BOARD_LIMITS, type BoardCounts, type BoardTask, RoostError } from "../../protocol/index.js";
import { RecordTable } from "../store/record-table.js";
import type { Store } from "../store/store.js";
import { actorLabel, type BoardActor, runsTheBoard } from "./actor.js";

/** What the board keeps of a task; `blocked` is derived when it is shown. */
export type StoredTask = Omit<BoardTask, "blocked">;

/** Why a task changed: each is one `task` event in the feed. */
type TaskChangeWhy = "add" | "claim" | "release" | "done" | "drop" | "assign";

export interface TaskChange {
  why: TaskChangeWhy;
  task: StoredTask;
  /** `: result`, `: to name`, `: why released`. */
  note: string | null;
  /** The session that held the task before the change, when it is told in a message. */
  holder: { id: string; name: string } | null;
}

/**
 * The shared task board (M47): tasks, their `after` dependencies, claims and the 200 cap, kept in
 * the store. The rules of who may do what are here; telling people (the feed, hubs, messages) is
 * the caller's.
 */
export class BoardRules {
  private readonly tasks: Map<number, StoredTask>;
  private readonly table: RecordTable<StoredTask>;

  constructor(
    store: Store,
    private readonly now: () => string,
    /** Whether a session can hold a claim still (it has not failed, stopped or gone). */
    private readonly holds: (sessionId: string) => boolean,
  ) {
    this.table = new RecordTable(store, "board_tasks");
    this.tasks = this.table.records;
  }

  /** Every task, oldest first, with `blocked` worked out. */
  list(): BoardTask[] {
    return [...this.tasks.values()].map((t) => this.shown(t));
  }

  shown(task: StoredTask): BoardTask {
    return { ...task, blocked: this.isBlocked(task) };
  }

  counts(): BoardCounts {
    const counts = { open: 0, claimed: 0, blocked: 0, done: 0 };
    for (const task of this.tasks.values()) {
      if (task.state === "open") counts[this.isBlocked(task) ? "blocked" : "open"]++;
      else if (task.state === "claimed") counts.claimed++;
      else if (task.state === "done") counts.done++;
    }
    return counts;
  }

  /** Open and waiting on a task that is neither done nor dropped (one trimmed off the board was). */
  private isBlocked(task: StoredTask): boolean {
    return task.state === "open" && this.waitingOn(task).length > 0;
  }

  /** The tasks in its `after` that are neither done nor dropped. */
  waitingOn(task: StoredTask): number[] {
    return task.after.filter((id) => {
      const before = this.tasks.get(id);
      return before !== undefined && before.state !== "done" && before.state !== "dropped";
    });
  }

  get(id: number): StoredTask {
    const task = this.tasks.get(id);
    if (!task) throw new RoostError("not_found", `no task #${id} on the board`);
    return task;
  }

  /** The name of the session as a holder of claims, or null when it holds none (asked on every change of a job). */
  holderName(sessionId: string): string | null {
    for (const task of this.tasks.values())
      if (task.state === "claimed" && task.owner?.id === sessionId) return task.owner.name;
    return null;
  }

  add(actor: BoardActor, title: string, detail: string | null, after: number[]): TaskChange[] {
    for (const id of after)
      if (!this.tasks.has(id)) throw new RoostError("bad_request", `after: no task #${id} on the board`);
    const changes: number[] = [];
    if (this.tasks.size >= BOARD_LIMITS.tasks) {
      // Full: the oldest done or dropped task makes room; with none, the board is full.
      const finished = [...this.tasks.values()].find((t) => t.state === "done" || t.state === "dropped");
      if (!finished)
        throw new RoostError("full", `the board holds ${BOARD_LIMITS.tasks} tasks, none done or dropped`);
      changes.push(finished.id);
    }
    // Written in the same turn as the new task: one transaction holds both.
    for (const id of changes) {
      this.table.remove(id);
      this.tasks.delete(id);
    }
    const task: StoredTask = {
      id: this.table.newId(),
      title,
      detail,
      state: "open",
      after: [...new Set(after)],
      by: actorLabel(actor),
      at: this.now(),
      owner: null,
      claimedAt: null,
      doneAt: null,
      result: null,
      assigned: null,
    };
    this.tasks.set(task.id, task);
    this.write(task);
    return [{ why: "add", task, note: null, holder: null }];
  }

  claim(actor: BoardActor, id: number): TaskChange[] {
    if (actor.kind !== "session")
      throw new RoostError("unsupported", `the ${actor.kind} does not claim tasks; assign one to a session`);
    const task = this.get(id);
    if (task.state === "done" || task.state === "dropped")
      throw new RoostError("bad_request", `task #${id} is ${task.state}`);
    const changes: TaskChange[] = [];
    if (task.state === "claimed" && task.owner) {
      if (task.owner.id === actor.id) return [];
      if (this.holds(task.owner.id))
        throw new RoostError("conflict", `task #${id} is claimed by ${task.owner.name} (${task.owner.id})`);
      changes.push(...this.releaseOf(task, `${task.owner.name} holds nothing now`));
    }
    const waiting = this.waitingOn(task);
    if (waiting.length > 0)
      throw new RoostError("blocked", `task #${id} waits on ${waiting.map((w) => `#${w}`).join(", ")}`);
    task.state = "claimed";
    task.owner = { id: actor.id, name: actor.name };
    task.claimedAt = this.now();
    task.assigned = null;
    this.write(task);
    changes.push({ why: "claim", task, note: null, holder: null });
    return changes;
  }

  /** The owner may; the user and the concierge may too (the holder is told). */
  private checkHolder(
    actor: BoardActor,
    task: StoredTask,
    action: string,
  ): { id: string; name: string } | null {
    if (task.state !== "claimed" || !task.owner)
      throw new RoostError(
        "bad_request",
        `task #${task.id} is ${task.state}, not claimed: nothing to ${action}`,
      );
    if (runsTheBoard(actor)) return task.owner;
    if (actor.kind === "session" && actor.id === task.owner.id) return null;
    throw new RoostError("unsupported", `task #${task.id} is ${task.owner.name}'s to ${action}, not yours`);
  }

  done(actor: BoardActor, id: number, result: string | null): TaskChange[] {
    const task = this.get(id);
    const holder = this.checkHolder(actor, task, "mark done");
    task.state = "done";
    task.doneAt = this.now();
    task.result = result;
    this.write(task);
    return [{ why: "done", task, note: result, holder }];
  }

  release(actor: BoardActor, id: number): TaskChange[] {
    const task = this.get(id);
    const holder = this.checkHolder(actor, task, "release");
    const why = runsTheBoard(actor) ? `by the ${actor.kind}` : `by ${task.owner!.name}`;
    return this.releaseOf(task, why).map((c) => ({ ...c, holder }));
  }

  drop(actor: BoardActor, id: number): TaskChange[] {
    if (!runsTheBoard(actor))
      throw new RoostError("unsupported", "only the user and the concierge drop tasks; release it instead");
    const task = this.get(id);
    if (task.state === "done" || task.state === "dropped")
      throw new RoostError("bad_request", `task #${id} is ${task.state} already`);
    const holder = task.state === "claimed" ? task.owner : null;
    task.state = "dropped";
    task.assigned = null;
    this.write(task);
    return [{ why: "drop", task, note: null, holder }];
  }

  /** Checks that the task can be handed over (`assign`), before the message goes. */
  checkAssignable(actor: BoardActor, id: number): StoredTask {
    if (!runsTheBoard(actor))
      throw new RoostError("unsupported", "only the user and the concierge assign tasks");
    const task = this.get(id);
    if (task.state !== "open")
      throw new RoostError("bad_request", `task #${id} is ${task.state}: only an open task is assigned`);
    return task;
  }

  assigned(id: number, to: { id: string; name: string }): TaskChange[] {
    const task = this.get(id);
    if (task.state !== "open") return [];
    task.assigned = { ...to, at: this.now() };
    this.write(task);
    return [{ why: "assign", task, note: `to ${to.name}`, holder: null }];
  }

  /** A session that failed, stopped or went holds nothing: its claims go back to open. */
  releaseHeldBy(sessionId: string, why: string): TaskChange[] {
    const changes: TaskChange[] = [];
    for (const task of this.tasks.values())
      if (task.state === "claimed" && task.owner?.id === sessionId)
        changes.push(...this.releaseOf(task, why));
    return changes;
  }

  private releaseOf(task: StoredTask, why: string): TaskChange[] {
    task.state = "open";
    task.owner = null;
    task.claimedAt = null;
    this.write(task);
    return [{ why: "release", task, note: why, holder: null }];
  }

  private write(task: StoredTask): void {
    this.table.put(task);
  }
}
