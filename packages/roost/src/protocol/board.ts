/** The shared task board (M47): the `task` op, its tasks and the `board` counts pushed to hubs. */

import { type Static, Type } from "typebox";
import { Maybe, NumberedId, Text } from "./fields.js";

export const BOARD_LIMITS = {
  /** Tasks kept; done and dropped ones go first when it is full. */
  tasks: 200,
  title: 500,
  detail: 8000,
  result: 6000,
  /** Tasks named in one `after`. */
  after: 50,
} as const;

export const TASK_STATES = ["open", "claimed", "done", "dropped"] as const;
export type TaskState = (typeof TASK_STATES)[number];

export const TASK_ACTIONS = ["list", "add", "claim", "done", "release", "drop", "assign"] as const;
export type TaskAction = (typeof TASK_ACTIONS)[number];

/** A task's id: a positive integer, or a string of digits. */
export const TaskId = NumberedId;
export type TaskId = Static<typeof TaskId>;

/** Who did something on the board: `user` (the hub), `concierge`, or a session's name and id. */
export interface TaskActor {
  who: string;
  whoId: string | null;
}

export interface BoardTask {
  id: number;
  title: string;
  detail: string | null;
  state: TaskState;
  /** Tasks that must be done or dropped before this one can be claimed. */
  after: number[];
  /** Derived: open and waiting on a task in `after`. */
  blocked: boolean;
  by: TaskActor;
  at: string;
  owner: { id: string; name: string } | null;
  claimedAt: string | null;
  doneAt: string | null;
  result: string | null;
  /** Handed to a session by `assign` (cleared by the claim). */
  assigned: { id: string; name: string; at: string } | null;
}

/**
 * How a message reached a session: `delivered` (connected), `queued` (it waits on the job's
 * queue), `started` (the ended job was started for it); the others did not reach it.
 */
export const MESSAGE_OUTCOMES = ["delivered", "queued", "started", "stopped", "full", "not running"] as const;
export type MessageOutcome = (typeof MESSAGE_OUTCOMES)[number];
export const REACHED_OUTCOMES: readonly MessageOutcome[] = ["delivered", "queued", "started"];

/**
 * `task {action, ...}`: which fields an action needs is the board's to say (`title` for add; `id`
 * for the others; `to` for assign); their types and limits are here.
 */
export const TaskArgs = Type.Object({
  action: Type.Enum(TASK_ACTIONS),
  id: Type.Optional(TaskId),
  title: Maybe(Type.String({ maxLength: BOARD_LIMITS.title })),
  detail: Maybe(Type.String({ maxLength: BOARD_LIMITS.detail })),
  after: Maybe(Type.Array(TaskId, { maxItems: BOARD_LIMITS.after })),
  result: Maybe(Type.String({ maxLength: BOARD_LIMITS.result })),
  to: Type.Optional(Text({ description: "a session's id or name" })),
});
export type TaskArgs = Static<typeof TaskArgs>;

export interface TaskResult {
  /** The whole board, oldest first. */
  tasks: BoardTask[];
  /** The task the action was about. */
  task?: BoardTask;
  /** `assign`: how the message reached the session. */
  sent?: MessageOutcome;
}

/** Open counts the tasks that can be claimed now; blocked the open ones waiting on `after`. */
export interface BoardCounts {
  open: number;
  claimed: number;
  blocked: number;
  done: number;
}

/** The board changed (to subscribed hubs). */
export interface BoardEvent extends BoardCounts {
  event: "board";
}
