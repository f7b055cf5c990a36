import { RoostError } from "../../protocol/index.js";
import { readOrderId } from "../concierge/orders.js";
import type { OpHandler } from "./context.js";

/** A field an action needs: the schema lets it be left out, the action does not. */
function needed<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new RoostError("bad_request", `${what}`);
  return value;
}

/** Text that is all blanks says nothing. */
function said(text: string, field = "text"): string {
  if (text.trim() === "") throw new RoostError("bad_request", `${field} must be a non-empty string`);
  return text;
}

const why = (value: string | null | undefined) => (value?.trim() ? value : null);

/** `concierge {action}`: the person's switch, policy and undo. */
export const concierge: OpHandler<"concierge"> = ({ concierge }, _caller, args) => {
  switch (args.action) {
    case "on":
      if (args.launch?.name !== undefined && args.launch?.name !== null)
        throw new RoostError("bad_request", "launch.name: the concierge's job is named concierge");
      return concierge.on(args.launch ?? undefined);
    case "off":
      return concierge.off();
    case "status":
      return concierge.status();
    case "answer":
      return concierge.setPolicy({ answer: needed(args.answer, "answer must be never, routine or always") });
    case "act":
      return concierge.setPolicy({ act: needed(args.act, "act must be true or false") });
    case "undo":
      return concierge.undo();
  }
};

export const conciergeAsk: OpHandler<"concierge-ask"> = ({ concierge }, _caller, args) =>
  concierge.ask(said(args.text));

export const conciergeSay: OpHandler<"concierge-say"> = ({ concierge }, caller, args) => {
  concierge.say(concierge.requireSpeaker(caller, "concierge-say"), args.kind, said(args.text));
  return {};
};

export const conciergeSuggest: OpHandler<"concierge-suggest"> = ({ concierge, jobs }, caller, args) => {
  const me = concierge.requireSpeaker(caller, "concierge-suggest");
  return concierge.suggest(me, jobs.resolve(args.id), said(args.text), why(args.why));
};

export const conciergePolicy: OpHandler<"concierge-policy"> = ({ concierge }, caller) => {
  concierge.requireSpeaker(caller, "concierge-policy");
  return concierge.policy();
};

export const conciergeReply: OpHandler<"concierge-reply"> = ({ concierge, jobs }, caller, args) => {
  const me = concierge.requireSpeaker(caller, "concierge-reply");
  return concierge.reply(me, jobs.resolve(args.id), said(args.text), why(args.why));
};

export const conciergeAct: OpHandler<"concierge-act"> = ({ concierge, jobs }, caller, args) => {
  const me = concierge.requireSpeaker(caller, "concierge-act");
  if (args.what === "dispatch")
    return concierge.act(me, { what: "dispatch", launch: needed(args.launch, "dispatch needs launch") });
  return concierge.act(me, {
    what: args.what,
    target: jobs.resolve(needed(args.id, `${args.what} needs id`)),
  });
};

/** `concierge-order {action}`: the person's and the concierge's standing orders. */
export const conciergeOrder: OpHandler<"concierge-order"> = ({ concierge }, caller, args) => {
  switch (args.action) {
    case "list":
      concierge.orderBy(caller);
      return concierge.orderResult();
    case "add":
      return concierge.addOrder(caller, args.text, args.when ?? undefined);
    case "rm":
      return concierge.removeOrder(caller, readOrderId(args.id));
    case "applied": {
      const me = concierge.requireSpeaker(caller, "concierge-order applied");
      return concierge.applied(me, readOrderId(args.id), args.text?.trim() || null);
    }
  }
};
