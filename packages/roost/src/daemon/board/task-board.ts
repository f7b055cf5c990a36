import {
  type MessageOutcome,
  REACHED_OUTCOMES,
  RoostError,
  type TaskActor,
  type TaskResult,
} from "../../protocol/index.js";
import type { EventsFeed } from "../events-feed.js";
import type { Job } from "../job.js";
import { actorLabel, type BoardActor, holdsClaims } from "./actor.js";
import { Board, type StoredTask, type TaskChange } from "./board.js";
import { type DeliveryContext, deliverMessage, messageText } from "./deliver-message.js";

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
export function assignmentMessage(task: StoredTask, by: TaskActor, waitingOn: number[]): string {
  const who = by.whoId === null ? `the ${by.who}` : by.who;
  return messageText(
    [
      `Task #${task.id} on the shared task board is handed to you by ${who}: ${task.title}`,
      ...(task.detail ? [task.detail] : []),
      ...(waitingOn.length
        ? [`It waits on ${waitingOn.map((id) => `#${id}`).join(", ")}: claim it once they are done.`]
        : []),
      `Claim it before you start (the task op {"action": "claim", "id": ${task.id}}), and when it is finished mark it done with a result ({"action": "done", "id": ${task.id}, "result": "..."}).`,
    ].join("\n"),
  );
}

/**
 * The board as the daemon runs it: each change goes to the feed as a `task` event, to subscribed
 * hubs as `board` counts, and to a task's holder as a message when someone else ended its hold.
 * Claims of a job that fails, is stopped or is removed are released.
 */
export class TaskBoard {
  readonly board: Board;
  private pushPending = false;
  /** Tasks whose hand-over (`assign`) is on its way. */
  private readonly handingOver = new Set<number>();

  constructor(
    private readonly ctx: DeliveryContext,
    private readonly feed: EventsFeed,
    db: ConstructorParameters<typeof Board>[0],
  ) {
    this.board = new Board(
      db,
      () => ctx.state.now(),
      (id) => holdsClaims(ctx.state.jobs.get(id)),
    );
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
      const holder = change.holder ? this.ctx.state.jobs.get(change.holder.id) : undefined;
      const text = holderMessage(change, by);
      if (holder && text && holder.kind === "protocol") deliverMessage(this.ctx, holder, text, by.who);
    }
    this.pushCounts();
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
    if (holdsClaims(job) || this.board.holderName(job.id) === null) return;
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
  assign(actor: BoardActor, id: number, to: Job): TaskResult {
    const task = this.board.checkAssignable(actor, id);
    if (this.handingOver.has(id))
      throw new RoostError("bad_request", `task #${id} is being handed over already`);
    this.handingOver.add(id);
    try {
      const by = actorLabel(actor);
      const message = assignmentMessage(task, by, this.board.waitingOn(task));
      const sent = deliverMessage(this.ctx, to, message, by.who);
      if (REACHED_OUTCOMES.includes(sent))
        this.publish(this.board.assigned(id, { id: to.id, name: to.name }), by);
      return this.result(this.board.get(id), sent);
    } finally {
      this.handingOver.delete(id);
    }
  }
}
