import type { ErrorCode } from "./errors.js";
import type { OpArgs, OpResult } from "./ops.js";
import type { JobRow } from "./rows.js";

/**
 * The wire between `roost web` and its page: one WebSocket at `WEB_LIVE_PATH` carries the fleet's
 * rows to the page and the person's ops to the daemon. Declared once, read by the server and the
 * page alike (the page imports these types only; nothing here runs in the browser but the names).
 */

/** The push channel's path. */
export const WEB_LIVE_PATH = "/live";

/** The cookie the page's token is traded for. */
export const WEB_COOKIE = "roost_web";

/** The ops the page may ask for: the person's own on one session, nothing that reaches further. */
export const WEB_OPS = ["reply", "describe", "stop"] as const;
export type WebOp = (typeof WEB_OPS)[number];

/** The largest message the page may send (a reply at its longest, with room for its fields). */
export const WEB_MAX_MESSAGE_BYTES = 256 * 1024;

/** Page → server: an op, numbered by the page (`rid`) to match its answer. */
export type WebRequest = { [O in WebOp]: { type: "op"; rid: number; op: O; args: OpArgs<O> } }[WebOp];

/** Server → page. */
export type WebMessage =
  /** Every row, after each (re)connection to the daemon. */
  | { type: "rows"; rows: JobRow[] }
  | { type: "row"; row: JobRow }
  | { type: "row-removed"; id: string }
  /** Whether the daemon answers `roost web` now (`detail`: why not). */
  | { type: "daemon"; status: "connecting" | "connected" | "gone"; detail: string | null }
  | { type: "answer"; rid: number; ok: true; result: OpResult<WebOp> }
  | { type: "answer"; rid: number; ok: false; code: ErrorCode | string; error: string };
