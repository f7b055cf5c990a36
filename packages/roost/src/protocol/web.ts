import type { AttachEvent } from "./attach.js";
import type { ErrorCode } from "./errors.js";
import { LIMITS } from "./limits.js";
import type { OpArgs, OpResult } from "./ops.js";
import type { JobRow } from "./rows.js";
import { WEB_FEED_OPS, type WebFeedMessage } from "./web-feeds.js";

/**
 * The wire between `roost web` and its page: one WebSocket at `WEB_LIVE_PATH` carries the fleet's
 * rows to the page and the person's ops to the daemon. Declared once, read by the server and the
 * page alike (the page takes its types and its few constants; nothing else of it runs in the browser).
 */

/** The push channel's path. */
export const WEB_LIVE_PATH = "/live";

/** The cookie the page's token is traded for. */
export const WEB_COOKIE = "roost_web";

/** The ops on a session the page passes on the fleet's connection. */
export const WEB_FLEET_OPS = ["reply", "describe", "stop"] as const;

/**
 * The person's ops on the fleet as a whole, passed on the fleet's connection too: a job dispatched
 * from a profile (and the profiles to pick from), one started again or removed, a worktree's diff.
 */
export const WEB_JOB_OPS = ["profiles", "dispatch", "respawn", "rm", "diff"] as const;

/** The ops that must carry a request id: the page sends them again after a break, and the daemon takes each once. */
export const WEB_ONCE_OPS = ["reply", "dispatch"] as const;

/**
 * `roost attach`'s ops: passed on a daemon connection of the page's own, so that each page is an
 * attached terminal of its own (the first attached holds the keyboard) and its attachments end
 * when its socket closes.
 */
export const WEB_ATTACH_OPS = ["attach", "attach-input", "attach-resize", "detach"] as const;
export type WebAttachOp = (typeof WEB_ATTACH_OPS)[number];

/** The ops the page may ask for: the person's own on one session, nothing that reaches further. */
export const WEB_OPS = [...WEB_FLEET_OPS, ...WEB_JOB_OPS, ...WEB_FEED_OPS, ...WEB_ATTACH_OPS] as const;
export type WebOp = (typeof WEB_OPS)[number];

export const isAttachOp = (op: WebOp): op is WebAttachOp =>
  (WEB_ATTACH_OPS as readonly string[]).includes(op);

export const isOnceOp = (
  request: WebRequest,
): request is Extract<WebRequest, { op: (typeof WEB_ONCE_OPS)[number] }> =>
  (WEB_ONCE_OPS as readonly string[]).includes(request.op);

/** The largest message the page may send (a reply at its longest, with room for its fields). */
export const WEB_MAX_MESSAGE_BYTES = 256 * 1024;

/**
 * The most keys one `attach-input` of the page carries: a paste goes in pieces of this many
 * characters, one after another. No more than the daemon takes in one, and few enough to fit a
 * message even if every one is escaped in JSON (`\u001b`: six bytes), with room for the fields.
 */
export const WEB_INPUT_CHUNK = Math.min(LIMITS.replyText, Math.floor((WEB_MAX_MESSAGE_BYTES - 1024) / 6));

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
  /** A job this page attached to: its output, its end, the keyboard passed to this page, the daemon's shutdown. */
  | { type: "terminal"; event: AttachEvent }
  /** The page's connection for attaching broke (the daemon went away): every attachment of the page ended. */
  | { type: "terminal-lost" }
  /** The board, the events feed, the concierge's line. */
  | WebFeedMessage
  | { type: "answer"; rid: number; ok: true; result: OpResult<WebOp> }
  | { type: "answer"; rid: number; ok: false; code: ErrorCode | string; error: string };
