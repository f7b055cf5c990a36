import { HUB_OPS, type OpName, RoostError } from "../protocol/index.js";
import type { Caller } from "./caller.js";
import { ack, hello, report } from "./ops/agent.js";
import { argsObject } from "./ops/args.js";
import type { OpContext, OpHandler } from "./ops/context.js";
import { shutdown, stats } from "./ops/daemon.js";
import { dispatch, respawn, rm, stop } from "./ops/jobs.js";
import { reply } from "./ops/replies.js";
import { list, pin, rename, reorder, subscribe } from "./ops/rows.js";

const OPS: Record<OpName, OpHandler> = {
  hello,
  report,
  ack,
  dispatch,
  reply,
  list,
  subscribe,
  stop,
  rm,
  respawn,
  pin,
  rename,
  reorder,
  shutdown,
  stats,
};

const HUB_OP_SET = new Set<string>(HUB_OPS);

/** Routes a request to its op; a session's connection is refused the hub's ops. */
export function route(ctx: OpContext, caller: Caller, op: unknown, args: unknown): unknown {
  if (typeof op !== "string" || !Object.hasOwn(OPS, op))
    throw new RoostError("bad_request", `unknown op ${JSON.stringify(op)}`);
  if (HUB_OP_SET.has(op) && caller.role === "session")
    throw new RoostError(
      "unsupported",
      `${op} is not for a session's connection (it said hello or reported); open a connection of its own`,
    );
  return OPS[op as OpName](ctx, caller, argsObject(args));
}
