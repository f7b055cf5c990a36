import {
  BOARD_LIMITS,
  RoostError,
  TASK_ACTIONS,
  type TaskAction,
  type TaskResult,
} from "../../protocol/index.js";
import { actorFor, actorLabel } from "../board/actor.js";
import type { Caller } from "../caller.js";
import { allSessions, type Session } from "../peers/sessions.js";
import { optionalString } from "./args.js";
import type { OpContext, OpHandler } from "./context.js";

/** A task's id: a positive integer, or a string of digits. */
export function readTaskId(value: unknown, field = "id"): number {
  const n = typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 1)
    throw new RoostError("bad_request", `${field} must be a positive integer (or a string of digits)`);
  return n;
}

function boundedText(args: Record<string, unknown>, field: string, max: number): string | null {
  const value = optionalString(args, field);
  if (value === undefined || value.trim() === "") return null;
  if (value.length > max) throw new RoostError("bad_request", `${field} is longer than ${max} characters`);
  return value;
}

function readAction(args: Record<string, unknown>): TaskAction {
  const action = args.action;
  if (typeof action !== "string" || !(TASK_ACTIONS as readonly string[]).includes(action))
    throw new RoostError("bad_request", `action must be one of ${TASK_ACTIONS.join(", ")}`);
  return action as TaskAction;
}

function readAfter(args: Record<string, unknown>): number[] {
  const after = args.after;
  if (after === undefined || after === null) return [];
  if (!Array.isArray(after)) throw new RoostError("bad_request", "after must be an array of task ids");
  if (after.length > BOARD_LIMITS.after)
    throw new RoostError("bad_request", `after names more than ${BOARD_LIMITS.after} tasks`);
  return after.map((id) => readTaskId(id, "after"));
}

/** Who a task is handed to: any session, a job or a connected foreground pi, by id or a unique name. */
function assignee(sessions: Session[], to: unknown): Session {
  if (typeof to !== "string" || to === "")
    throw new RoostError("bad_request", "to must be a session's id or name");
  const byId = sessions.find((s) => s.peerId === to);
  if (byId) return byId;
  const named = sessions.filter((s) => s.name === to);
  if (named.length === 1) return named[0]!;
  if (named.length > 1)
    throw new RoostError(
      "bad_request",
      `${named.length} sessions are named ${JSON.stringify(to)} (${named.map((s) => s.peerId).join(", ")}); use an id`,
    );
  throw new RoostError("not_found", `no session ${JSON.stringify(to)}`);
}

/** `task {action}`: the shared task board (M47), on any connection. */
/** Answered once the change (and any message it sent) is kept. */
export const task: OpHandler = async (ctx, caller, args): Promise<TaskResult> => {
  const result = changeTasks(ctx, caller, args);
  await ctx.state.store.committed();
  return result;
};

function changeTasks(ctx: OpContext, caller: Caller, args: Record<string, unknown>): TaskResult {
  const { state, board: service } = ctx;
  const action = readAction(args);
  const actor = actorFor(state, caller, ctx.peers.context.foreground);
  const by = actorLabel(actor);
  const board = service.board;
  switch (action) {
    case "list":
      return service.result();
    case "add": {
      const title = boundedText(args, "title", BOARD_LIMITS.title);
      if (title === null) throw new RoostError("bad_request", "title must be a non-empty string");
      const detail = boundedText(args, "detail", BOARD_LIMITS.detail);
      const changes = board.add(actor, title, detail, readAfter(args));
      service.publish(changes, by);
      return service.result(changes[0]!.task);
    }
    case "claim": {
      const id = readTaskId(args.id);
      const changes = board.claim(actor, id);
      service.publish(changes, by);
      return service.result(board.get(id));
    }
    case "done": {
      const id = readTaskId(args.id);
      const result = boundedText(args, "result", BOARD_LIMITS.result);
      service.publish(board.done(actor, id, result), by);
      return service.result(board.get(id));
    }
    case "release": {
      const id = readTaskId(args.id);
      service.publish(board.release(actor, id), by);
      return service.result(board.get(id));
    }
    case "drop": {
      const id = readTaskId(args.id);
      service.publish(board.drop(actor, id), by);
      return service.result(board.get(id));
    }
    case "assign": {
      const id = readTaskId(args.id);
      board.checkAssignable(actor, id);
      return service.assign(actor, id, assignee(allSessions(state, ctx.peers.context.foreground), args.to));
    }
  }
}
