import {
  LIMITS,
  type MessageOutcome,
  REACHED_OUTCOMES,
  RoostError,
  type TaskActor,
  type TaskResult,
} from "../../protocol/index.js";
import type { Caller } from "../caller.js";
import type { EventsFeed } from "../feed/events-feed.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import type { Job } from "../jobs/job.js";
import type { Supervisor } from "../jobs/supervisor.js";
import { deliverItem } from "../peers/deliver-item.js";
import type { ForegroundPeers } from "../peers/foreground.js";
import { allSessions, type Session } from "../peers/sessions.js";
import type { Store } from "../store/store.js";
import { TUNING } from "../tuning.js";
import { actorFor, actorLabel, type BoardActor, keepsClaims } from "./actor.js";
import { BoardRules, type StoredTask, type TaskChange } from "./board-rules.js";

/** What the board needs to tell sessions: the jobs and a way to start one. */
interface DeliveryContext {
  state: DaemonState;
  supervisor: Supervisor;
}

/** A message from the user or the concierge (not a peer: no relation), cut to a message's limit. */
function deliverMessage(ctx: DeliveryContext, job: Job, text: string, from: string): MessageOutcome {
  const cut = text.length <= LIMITS.message ? text : `${text.slice(0, LIMITS.message - 1)}…`;
  return deliverItem(ctx.state, ctx.supervisor, job, { kind: "message", from, relation: "", text: cut });
}

function taskLine(task: StoredTask): string {
  return `#${task.id} ${task.title}`;
}

/** What the holder of a task is told when the user or the concierge acts on it. */
function holderMessage(change: TaskChange, by: TaskActor): string | null {
  const line = `${taskLine(change.task)}`;
  const who = by.whoId === null ? `the ${by.who}` : by.who;
  if (change.why === "done")
    return `Task ${line} on the shared board was marked done by ${who}${change.note ? `: ${change.note}` : ""}. You no longer hold it.`;
  if (change.why === "release")
    return `Task ${line} on the shared board was released by ${who}. You no longer hold it.`;
  if (change.why === "drop")
    return `Task ${line} was dropped from the shared board by ${who}. Stop working on it.`;
  return null;
}

/** The message `assign` sends: the task, and how to claim it. */
function assignmentMessage(task: StoredTask, by: TaskActor, waitingOn: number[]): string {
  const who = by.whoId === null ? `the ${by.who}` : by.who;
  return [
    `Task #${task.id} on the shared task board is handed to you by ${who}: ${task.title}`,
    ...(task.detail ? [task.detail] : []),
    ...(waitingOn.length
      ? [`It waits on ${waitingOn.map((id) => `#${id}`).join(", ")}: claim it once they are done.`]
      : []),
    `Claim it before you start (the task op {"action": "claim", "id": ${task.id}}), and when it is finished mark it done with a result ({"action": "done", "id": ${task.id}, "result": "..."}).`,
  ].join("\n");
}

/**
 * The board as the daemon runs it: each change goes to the feed as a `task` event, to subscribed
 * hubs as `board` counts, and to a task's holder as a message when someone else ended its hold.
 * Claims of a job that fails, is stopped or is removed are released.
 */
export class BoardService {
  readonly board: BoardRules;
  private pushPending = false;
  /** Tasks whose hand-over (`assign`) is on its way. */
  private readonly handingOver = new Set<number>();
  /** Foreground sessions holding claims, from when their connection was first seen gone. */
  private readonly goneSince = new Map<string, number>();

  constructor(
    private readonly ctx: DeliveryContext,
    private readonly feed: EventsFeed,
    store: Store,
    private readonly foreground: ForegroundPeers,
    private readonly graceMs = TUNING.foregroundClaimGraceMs,
  ) {
    this.board = new BoardRules(
      store,
      () => ctx.state.now(),
      (id) => this.holds(id),
    );
    // A foreground pi's claims go once it has been away for the grace; looked at a few times in it.
    setInterval(() => this.releaseGoneForeground(), Math.max(50, Math.min(1000, this.graceMs / 4))).unref();
  }

  /** Who a connection is on the board (a session must have reported first). */
  actorOf(caller: Caller): BoardActor {
    return actorFor(this.ctx.state, caller, this.foreground);
  }

  /** Every session a task can be handed to: the jobs and the connected foreground pis. */
  sessions(): Session[] {
    return allSessions(this.ctx.state, this.foreground);
  }

  /** Whether a session can still hold a claim: a job that has not failed, stopped or gone; a foreground pi back within the grace. */
  private holds(id: string): boolean {
    const job = this.ctx.state.jobs.get(id);
    if (job) return keepsClaims(job);
    if (this.foreground.byIdLive(id)) {
      this.goneSince.delete(id);
      return true;
    }
    const since = this.goneSince.get(id) ?? Date.now();
    this.goneSince.set(id, since);
    return Date.now() - since < this.graceMs;
  }

  private releaseGoneForeground(): void {
    const holders = new Map<string, string>();
    for (const task of this.board.list())
      if (task.state === "claimed" && task.owner && !this.ctx.state.jobs.has(task.owner.id))
        holders.set(task.owner.id, task.owner.name);
    for (const id of this.goneSince.keys()) if (!holders.has(id)) this.goneSince.delete(id);
    for (const [id, name] of holders) {
      if (this.holds(id)) continue;
      this.goneSince.delete(id);
      this.publish(this.board.releaseHeldBy(id, "its session disconnected"), { who: name, whoId: id });
    }
  }

  result(task?: StoredTask, sent?: MessageOutcome): TaskResult {
    return {
      tasks: this.board.list(),
      ...(task ? { task: this.board.shown(task) } : {}),
      ...(sent ? { sent } : {}),
    };
  }

  /** Tells everyone of the changes an action made. */
  publish(changes: TaskChange[], by: TaskActor): void {
    if (changes.length === 0) return;
    for (const change of changes) {
      const jobs = [by.whoId, change.task.owner?.id, change.holder?.id, change.task.assigned?.id].filter(
        (id): id is string => typeof id === "string",
      );
      this.feed.add({
        kind: "task",
        why: change.why,
        text: `${taskLine(change.task)}${change.note ? `: ${change.note}` : ""}`,
        who: by.who,
        whoId: by.whoId,
        jobs: [...new Set(jobs)],
        taskId: change.task.id,
      });
      const text = holderMessage(change, by);
      if (change.holder && text) this.tell(change.holder.id, text, by.who);
    }
    this.pushCounts();
  }

  /** Tells a holder, a job (on its queue) or a connected foreground pi, what became of its task. */
  private tell(holderId: string, text: string, from: string): void {
    const job = this.ctx.state.jobs.get(holderId);
    if (job) {
      if (job.kind === "protocol") deliverMessage(this.ctx, job, text, from);
      return;
    }
    const peer = this.foreground.byIdLive(holderId);
    if (peer) this.foreground.deliver(peer, { kind: "message", from, text });
  }

  /** The counts go to subscribed hubs once the current work is done (a few changes, one event). */
  private pushCounts(): void {
    if (this.pushPending) return;
    this.pushPending = true;
    setImmediate(() => {
      this.pushPending = false;
      const counts = this.board.counts();
      for (const caller of this.ctx.state.callers)
        if (caller.subscribed) caller.send({ event: "board", ...counts });
    });
  }

  /** A job changed: one that failed or was stopped holds nothing. */
  jobChanged(job: Job): void {
    if (keepsClaims(job) || this.board.holderName(job.id) === null) return;
    this.publish(this.board.releaseHeldBy(job.id, `its session ${job.lifecycle}`), {
      who: job.name,
      whoId: job.id,
    });
  }

  jobRemoved(id: string): void {
    const name = this.board.holderName(id);
    if (name === null) return;
    this.publish(this.board.releaseHeldBy(id, "its session was removed"), { who: name, whoId: id });
  }

  /**
   * Hands an open task to a session: a message with the task and how to claim it. The task is
   * marked assigned only when the message reached the session.
   */
  assign(actor: BoardActor, id: number, to: Session): TaskResult {
    const task = this.board.checkAssignable(actor, id);
    if (this.handingOver.has(id))
      throw new RoostError("bad_request", `task #${id} is being handed over already`);
    this.handingOver.add(id);
    try {
      const by = actorLabel(actor);
      const message = assignmentMessage(task, by, this.board.waitingOn(task));
      const sent: MessageOutcome = to.job
        ? deliverMessage(this.ctx, to.job, message, by.who)
        : this.foreground.deliver(to.foreground!, { kind: "message", from: by.who, text: message })
          ? "delivered"
          : "not running";
      if (REACHED_OUTCOMES.includes(sent))
        this.publish(this.board.assigned(id, { id: to.peerId, name: to.name }), by);
      return this.result(this.board.get(id), sent);
    } finally {
      this.handingOver.delete(id);
    }
  }
}
