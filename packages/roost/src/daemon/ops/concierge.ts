import {
  ANSWER_POLICIES,
  type AnswerPolicy,
  CONCIERGE_ACTIONS,
  CONCIERGE_LIMITS,
  LIMITS,
  ORDER_ACTIONS,
  RoostError,
  SAY_KINDS,
  type SayKind,
} from "../../protocol/index.js";
import { readOrderId } from "../concierge/orders.js";
import { optionalString } from "./args.js";
import type { OpHandler } from "./context.js";

function oneOf<T extends string>(args: Record<string, unknown>, field: string, values: readonly T[]): T {
  const v = args[field];
  if (typeof v !== "string" || !(values as readonly string[]).includes(v))
    throw new RoostError("bad_request", `${field} must be one of ${values.join(", ")}`);
  return v as T;
}

function text(args: Record<string, unknown>, field = "text", max: number = CONCIERGE_LIMITS.text): string {
  const v = args[field];
  if (typeof v !== "string" || v.trim() === "")
    throw new RoostError("bad_request", `${field} must be a non-empty string`);
  if (v.length > max) throw new RoostError("bad_request", `${field} is longer than ${max} characters`);
  return v;
}

function why(args: Record<string, unknown>): string | null {
  const v = optionalString(args, "why");
  if (v === undefined || v.trim() === "") return null;
  if (v.length > CONCIERGE_LIMITS.why)
    throw new RoostError("bad_request", `why is longer than ${CONCIERGE_LIMITS.why} characters`);
  return v;
}

function launchOf(args: Record<string, unknown>, optional: boolean): Record<string, unknown> | undefined {
  const launch = args.launch;
  if (launch === undefined && optional) return undefined;
  if (typeof launch !== "object" || launch === null || Array.isArray(launch))
    throw new RoostError(
      "bad_request",
      "launch must be a dispatch's arguments {profile, task?, cwd?, name?}",
    );
  return launch as Record<string, unknown>;
}

/** `concierge {action}`: the person's switch, policy and undo (a session's connection is refused). */
export const concierge: OpHandler = ({ concierge }, _caller, args) => {
  const action = oneOf(args, "action", CONCIERGE_ACTIONS);
  switch (action) {
    case "on": {
      const launch = launchOf(args, true);
      if (launch && launch.name !== undefined)
        throw new RoostError("bad_request", "launch.name: the concierge's job is named concierge");
      return concierge.on(launch);
    }
    case "off":
      return concierge.off();
    case "status":
      return concierge.status();
    case "answer":
      return concierge.setPolicy({ answer: oneOf<AnswerPolicy>(args, "answer", ANSWER_POLICIES) });
    case "act":
      if (typeof args.act !== "boolean") throw new RoostError("bad_request", "act must be true or false");
      return concierge.setPolicy({ act: args.act });
    case "undo":
      return concierge.undo();
  }
};

export const conciergeAsk: OpHandler = ({ concierge }, _caller, args) =>
  concierge.ask(text(args, "text", LIMITS.replyText));

export const conciergeSay: OpHandler = ({ concierge }, caller, args) => {
  const me = concierge.requireSpeaker(caller, "concierge-say");
  concierge.say(me, oneOf<SayKind>(args, "kind", SAY_KINDS), text(args));
  return {};
};

export const conciergeSuggest: OpHandler = ({ concierge, state }, caller, args) => {
  const me = concierge.requireSpeaker(caller, "concierge-suggest");
  return concierge.suggest(me, state.resolve(args.id), text(args), why(args));
};

export const conciergePolicy: OpHandler = ({ concierge }, caller) => {
  concierge.requireSpeaker(caller, "concierge-policy");
  return concierge.policy();
};

export const conciergeReply: OpHandler = ({ concierge, state }, caller, args) => {
  const me = concierge.requireSpeaker(caller, "concierge-reply");
  return concierge.reply(me, state.resolve(args.id), text(args), why(args));
};

export const conciergeAct: OpHandler = ({ concierge, state }, caller, args) => {
  const me = concierge.requireSpeaker(caller, "concierge-act");
  const what = oneOf(args, "what", ["stop", "respawn", "dispatch"] as const);
  if (what === "dispatch") return concierge.act(me, { what, launch: launchOf(args, false)! });
  return concierge.act(me, { what, target: state.resolve(args.id) });
};

/** `concierge-order {action}`: the person's and the concierge's standing orders. */
export const conciergeOrder: OpHandler = ({ concierge }, caller, args) => {
  const action = oneOf(args, "action", ORDER_ACTIONS);
  switch (action) {
    case "list":
      concierge.orderBy(caller);
      return concierge.orderResult();
    case "add":
      return concierge.addOrder(caller, args.text, args.when);
    case "rm":
      return concierge.removeOrder(caller, readOrderId(args.id));
    case "applied": {
      const me = concierge.requireSpeaker(caller, "concierge-order applied");
      const note = optionalString(args, "text");
      if (note !== undefined && note.length > CONCIERGE_LIMITS.text)
        throw new RoostError("bad_request", `text is longer than ${CONCIERGE_LIMITS.text} characters`);
      return concierge.applied(me, readOrderId(args.id), note?.trim() || null);
    }
  }
};
