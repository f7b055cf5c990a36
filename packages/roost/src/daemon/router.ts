import { OPS, type OpCaller, type OpName, RoostError } from "../protocol/index.js";
import type { Caller } from "./caller.js";
import { callerKind } from "./caller-kind.js";
import { checkedArgs } from "./op-args.js";
import { ack, hello, report } from "./ops/agent.js";
import { attach, attachInput, attachResize, detach } from "./ops/attach.js";
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
import type { OpContext, OpHandlers } from "./ops/context.js";
import { notifyTest, shutdown, stats } from "./ops/daemon.js";
import { describe } from "./ops/describe.js";
import { events } from "./ops/events.js";
import { adopt, dispatch, profiles, respawn, resume, rm, stop } from "./ops/jobs.js";
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
import { transcript } from "./ops/transcript.js";
import { branches, diff, merge } from "./ops/worktrees.js";
import { OpWrites } from "./store/op-writes.js";

/** Every op's handler: the protocol's op map decides which there must be and what each takes and answers. */
const HANDLERS: OpHandlers = {
  hello,
  report,
  ack,
  dispatch,
  profiles,
  reply,
  list,
  describe,
  transcript,
  subscribe,
  stop,
  rm,
  adopt,
  respawn,
  resume,
  pin,
  rename,
  reorder,
  shutdown,
  stats,
  "notify-test": notifyTest,
  diff,
  merge,
  branches,
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

/** Why a caller may not use an op, or null when it may (the op's record says who may). */
export function refusal(op: OpName, kind: OpCaller | "unidentified"): string | null {
  const callers: readonly OpCaller[] = OPS[op].callers;
  const may =
    kind === "unidentified"
      ? callers.includes("user") || callers.includes("session")
      : callers.includes(kind) || (kind === "concierge" && callers.includes("session"));
  if (may) return null;
  return `${op} is not for a session's connection (it said hello or reported); open a connection of its own`;
}

/** The daemon's log, as the ops' errors reach it. */
export type Log = (line: string) => void;

/**
 * Routes a request to its op: an op the protocol does not declare is `bad_request`, a caller the
 * op's record does not name is `unsupported`, arguments are checked against its schema, then its
 * handler runs. An error that is not a `RoostError` is a fault: it goes to the log with its stack,
 * and the client gets `internal` with a short text.
 */
export function route(ctx: OpContext, log: Log, caller: Caller, op: unknown, rawArgs: unknown): unknown {
  if (typeof op !== "string" || !Object.hasOwn(OPS, op))
    throw new RoostError("bad_request", `unknown op ${JSON.stringify(op)}`);
  const name = op as OpName;
  const kind = callerKind(ctx.jobs, caller);
  const refused = refusal(name, kind);
  if (refused !== null) throw new RoostError("unsupported", refused);
  const args = checkedArgs(name, rawArgs);
  const handler = HANDLERS[name] as (ctx: OpContext, caller: Caller, args: unknown) => unknown;
  const fault = (err: unknown): never => {
    if (err instanceof RoostError) throw err;
    const jobId = (args as { id?: unknown }).id ?? caller.jobId;
    log(
      `op ${name} failed (job ${typeof jobId === "string" ? jobId : "none"}): ${(err as Error)?.stack ?? err}`,
    );
    throw new RoostError("internal", `internal error in ${name}: ${(err as Error)?.message ?? String(err)}`);
  };
  // What an op answers is kept: the store ties every write asked while its handler runs to it, and
  // the op answers once they are committed, so a crash right after the answer loses nothing it said
  // was done; when one is not, its memory change is undone and the op answers the store's error. An
  // op that wrote nothing (a report, whose row is saved a moment later, or a read) answers at once.
  // A session's hello, reports and acks tell what happened: saved as they come, a failure logged.
  const { writes: declared } = OPS[name];
  const writes = new OpWrites();
  const kept = (value: unknown) => {
    if (declared === "none" && writes.asked > 0)
      log(`op ${name} asked for ${writes.asked} write(s), though its record says it writes none`);
    return writes.answer(value);
  };
  try {
    // The concierge's connection has the rights the person's policy gives it, for every op.
    const run = () =>
      kind === "concierge"
        ? ctx.concierge.asConcierge(name, () => handler(ctx, caller, args))
        : handler(ctx, caller, args);
    const result = declared === "logged" ? run() : writes.run(run);
    const answer = result instanceof Promise ? result.then(kept, (err) => failed(writes, err)) : kept(result);
    return answer instanceof Promise ? answer.catch(fault) : answer;
  } catch (err) {
    const settled = writes.settle();
    return settled === null ? fault(err) : settled.then(() => fault(err));
  }
}

/** An op that failed after asking for writes: they are settled (undone where not kept) before it answers. */
function failed(writes: OpWrites, err: unknown): never | Promise<never> {
  const settled = writes.settle();
  if (settled === null) throw err;
  return settled.then(() => {
    throw err;
  });
}
