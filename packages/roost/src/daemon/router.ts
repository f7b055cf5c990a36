import { HUB_OPS, type OpName, RoostError } from "../protocol/index.js";
import type { Caller } from "./caller.js";
import { ack, hello, report } from "./ops/agent.js";
import { argsObject } from "./ops/args.js";
import {
  concierge,
  conciergeAct,
  conciergeAsk,
  conciergeOrder,
  conciergePolicy,
  conciergeReply,
  conciergeSay,
  conciergeSuggest,
} from "./ops/concierge.js";
import type { OpContext, OpHandler } from "./ops/context.js";
import { shutdown, stats } from "./ops/daemon.js";
import { describe } from "./ops/describe.js";
import { events } from "./ops/events.js";
import { dispatch, respawn, rm, stop } from "./ops/jobs.js";
import { handback, peerRegister, peersOp, send, spawn, watch } from "./ops/peers.js";
import { reply } from "./ops/replies.js";
import { list, pin, rename, reorder, subscribe } from "./ops/rows.js";
import {
  scheduleAdd,
  schedulePause,
  scheduleResume,
  scheduleRm,
  scheduleRun,
  schedules,
} from "./ops/schedules.js";
import { task } from "./ops/tasks.js";
import { attach, attachInput, attachResize, detach } from "./terminal/attach-ops.js";

/** Ops with a handler; one declared in the protocol without one here is answered as unknown. */
const OPS: Partial<Record<OpName, OpHandler>> = {
  hello,
  report,
  ack,
  dispatch,
  reply,
  list,
  describe,
  subscribe,
  stop,
  rm,
  respawn,
  pin,
  rename,
  reorder,
  shutdown,
  stats,
  task,
  events,
  schedules,
  "schedule-add": scheduleAdd,
  "schedule-rm": scheduleRm,
  "schedule-pause": schedulePause,
  "schedule-resume": scheduleResume,
  "schedule-run": scheduleRun,
  attach,
  "attach-input": attachInput,
  "attach-resize": attachResize,
  detach,
  peer_register: peerRegister,
  peers: peersOp,
  send,
  spawn,
  handback,
  watch,
  concierge,
  "concierge-ask": conciergeAsk,
  "concierge-say": conciergeSay,
  "concierge-suggest": conciergeSuggest,
  "concierge-policy": conciergePolicy,
  "concierge-reply": conciergeReply,
  "concierge-act": conciergeAct,
  "concierge-order": conciergeOrder,
};

const HUB_OP_SET = new Set<string>(HUB_OPS);

/** Routes a request to its op; a session's connection is refused the hub's ops. */
export function route(ctx: OpContext, caller: Caller, op: unknown, args: unknown): unknown {
  const handler = typeof op === "string" && Object.hasOwn(OPS, op) ? OPS[op as OpName] : undefined;
  if (!handler) throw new RoostError("bad_request", `unknown op ${JSON.stringify(op)}`);
  if (HUB_OP_SET.has(op as string) && caller.role === "session")
    throw new RoostError(
      "unsupported",
      `${op} is not for a session's connection (it said hello or reported); open a connection of its own`,
    );
  return handler(ctx, caller, argsObject(args));
}
