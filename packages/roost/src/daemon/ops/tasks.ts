import { nameKey, RoostError, type TaskId } from "../../protocol/index.js";
import { actorLabel } from "../board/actor.js";
import type { Session } from "../peers/sessions.js";
import type { OpHandler } from "./context.js";

/**
 * A number the daemon gave, as the schema let it through (a positive integer or a string of
 * digits): "0" and "000" are not one.
 */
export function numberedId(value: TaskId | undefined, field = "id"): number {
  const n = typeof value === "string" ? Number(value) : value;
  if (n === undefined || !Number.isSafeInteger(n) || n < 1)
    throw new RoostError("bad_request", `${field} must be a positive integer (or a string of digits)`);
  return n;
}

/** A text field, blank as good as absent. */
function text(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === "" ? null : value;
}

/** Who a task is handed to: any session, a job or a connected foreground pi, by id or a unique name. */
function assignee(sessions: Session[], to: string | undefined): Session {
  if (to === undefined) throw new RoostError("bad_request", "to must be a session's id or name");
  const byId = sessions.find((s) => s.peerId === to);
  if (byId) return byId;
  const named = sessions.filter((s) => nameKey(s.name) === nameKey(to));
  if (named.length === 1) return named[0]!;
  if (named.length > 1)
    throw new RoostError(
      "bad_request",
      `${named.length} sessions are named ${JSON.stringify(to)} (${named.map((s) => s.peerId).join(", ")}); use an id`,
    );
  throw new RoostError("not_found", `no session ${JSON.stringify(to)}`);
}

/** `task {action}`: the shared task board (M47), on any connection; answered once the change (and any message it sent) is kept, as every op that writes. */
export const task: OpHandler<"task"> = ({ board: service }, caller, args) => {
  const { action } = args;
  const actor = service.actorOf(caller);
  const by = actorLabel(actor);
  const board = service.board;
  switch (action) {
    case "list":
      return service.result();
    case "add": {
      const title = text(args.title);
      if (title === null) throw new RoostError("bad_request", "title must be a non-empty string");
      const after = (args.after ?? []).map((id) => numberedId(id, "after"));
      const changes = board.add(actor, title, text(args.detail), after);
      service.publish(changes, by);
      return service.result(changes[0]!.task);
    }
    case "claim": {
      const id = numberedId(args.id);
      const changes = board.claim(actor, id);
      service.publish(changes, by);
      return service.result(board.get(id));
    }
    case "done": {
      const id = numberedId(args.id);
      service.publish(board.done(actor, id, text(args.result)), by);
      return service.result(board.get(id));
    }
    case "release": {
      const id = numberedId(args.id);
      service.publish(board.release(actor, id), by);
      return service.result(board.get(id));
    }
    case "drop": {
      const id = numberedId(args.id);
      service.publish(board.drop(actor, id), by);
      return service.result(board.get(id));
    }
    case "assign": {
      const id = numberedId(args.id);
      board.checkAssignable(actor, id);
      return service.assign(actor, id, assignee(service.sessions(), args.to));
    }
  }
};
