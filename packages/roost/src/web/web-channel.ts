import type { WebSocket } from "ws";
import { RoostError } from "../protocol/errors.js";
import {
  isAttachOp,
  isOnceOp,
  WEB_OPS,
  type WebMessage,
  type WebOp,
  type WebRequest,
} from "../protocol/web.js";
import { PageAttachments } from "./page-attachments.js";
import type { WebFleet } from "./web-fleet.js";

/**
 * One page's push channel: the fleet's changes and its attached terminals out, the person's ops in,
 * each answered by its `rid`.
 */
export function serveChannel(socket: WebSocket, fleet: WebFleet): void {
  const send = (message: WebMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  const stopRows = fleet.join(send);
  const terminals = new PageAttachments(() => fleet.connect(), send);
  const leave = () => {
    stopRows();
    terminals.close();
  };
  socket.on("close", leave);
  socket.on("error", leave);
  socket.on("message", (data, isBinary) => {
    const request = isBinary ? null : parseRequest(String(data));
    if (request === null) {
      send({ type: "answer", rid: -1, ok: false, code: "bad_request", error: "not an op message" });
      return;
    }
    if (isOnceOp(request) && !request.args.requestId) {
      send({
        type: "answer",
        rid: request.rid,
        ok: false,
        code: "bad_request",
        error: `a ${request.op} needs a requestId`,
      });
      return;
    }
    const { op, rid } = request;
    const answer = isAttachOp(op)
      ? terminals.call(op, request.args)
      : fleet.connection.call(op, request.args);
    const answered = (message: WebMessage) => {
      send(message);
      if (isAttachOp(op)) terminals.answered(op);
    };
    answer.then(
      (result) => answered({ type: "answer", rid, ok: true, result: result as never }),
      (error) =>
        answered({
          type: "answer",
          rid,
          ok: false,
          code: error instanceof RoostError ? error.code : "internal",
          error: error instanceof Error ? error.message : String(error),
        }),
    );
  });
}

/** A page's message as an op it may ask for, or null; the daemon checks the op's arguments itself. */
export function parseRequest(text: string): WebRequest | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { type, rid, op, args } = value as Record<string, unknown>;
  if (type !== "op" || !Number.isSafeInteger(rid) || (rid as number) < 0) return null;
  if (!WEB_OPS.includes(op as WebOp)) return null;
  if (typeof args !== "object" || args === null || Array.isArray(args)) return null;
  return value as WebRequest;
}
