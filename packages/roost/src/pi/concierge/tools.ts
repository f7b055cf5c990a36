import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { Type } from "typebox";
import type { PeerCall } from "../../client/peers.js";

function result(details: unknown, text = JSON.stringify(details, null, 2)) {
  return { content: [{ type: "text" as const, text }], details };
}

const SESSION = Type.String({ description: "a session's id or name" });
const WHY = Type.Optional(Type.String({ description: "why, in a few words", maxLength: 500 }));

/**
 * The concierge's tools, each one op on its job's connection: say, suggest, reply, act, orders,
 * the policy and the events feed. A refusal (the policy, a row that does not wait) is the tool's
 * error, with its code.
 */
export function registerConciergeTools(pi: ExtensionAPI, call: PeerCall): void {
  pi.registerTool({
    name: "concierge_say",
    label: "concierge say",
    description: "Tell the person something: kind need (they must act), info, or answer (to their ask).",
    parameters: Type.Object({
      kind: Type.Union([Type.Literal("info"), Type.Literal("need"), Type.Literal("answer")]),
      text: Type.String({ maxLength: 2000 }),
    }),
    async execute(_id, params) {
      await call("concierge-say", params);
      return result({ said: params.kind }, `said (${params.kind})`);
    },
  });
  const answers = [
    ["suggest", "Suggest an answer on a waiting session's row; the person accepts it with one key."],
    ["reply", "Answer a waiting session's question in the person's place, as the policy allows."],
  ] as const;
  for (const [verb, description] of answers)
    pi.registerTool({
      name: `concierge_${verb}`,
      label: `concierge ${verb}`,
      description,
      parameters: Type.Object({ id: SESSION, text: Type.String({ maxLength: 2000 }), why: WHY }),
      async execute(_id, params) {
        return result(
          await call(`concierge-${verb}`, params),
          `${verb === "suggest" ? "suggested" : "replied"} to ${params.id}`,
        );
      },
    });
  pi.registerTool({
    name: "concierge_act",
    label: "concierge act",
    description: "Stop or respawn a session (id), or start one (profile, task): only with act on.",
    parameters: Type.Object({
      what: Type.Union([Type.Literal("stop"), Type.Literal("respawn"), Type.Literal("dispatch")]),
      id: Type.Optional(SESSION),
      profile: Type.Optional(Type.String()),
      task: Type.Optional(Type.String()),
      cwd: Type.Optional(Type.String()),
      name: Type.Optional(Type.String()),
    }),
    async execute(_id, { what, id, ...launch }) {
      const args = what === "dispatch" ? { what, launch } : { what, id };
      return result(await call("concierge-act", args));
    },
  });
  pi.registerTool({
    name: "concierge_orders",
    label: "concierge orders",
    description:
      'Standing orders: list; add (text, when: every 30m | daily 18:00 | weekdays 09:00 | cron "..."); rm your own (id); applied (id, text: what you did).',
    parameters: Type.Object({
      action: Type.Union([
        Type.Literal("list"),
        Type.Literal("add"),
        Type.Literal("rm"),
        Type.Literal("applied"),
      ]),
      id: Type.Optional(Type.Integer()),
      text: Type.Optional(Type.String({ maxLength: 1000 })),
      when: Type.Optional(Type.String()),
    }),
    async execute(_id, params) {
      return result(await call("concierge-order", params));
    },
  });
  pi.registerTool({
    name: "concierge_policy",
    label: "concierge policy",
    description: "What the person allows now: answer (never | routine | always) and act (true | false).",
    parameters: Type.Object({}),
    async execute() {
      return result(await call("concierge-policy", {}));
    },
  });
  pi.registerTool({
    name: "concierge_events",
    label: "concierge events",
    description: "Read the events feed: the newest (limit), after a cursor, or about one session (id).",
    parameters: Type.Object({
      after: Type.Optional(Type.Integer({ minimum: 0 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
      id: Type.Optional(SESSION),
    }),
    async execute(_id, params) {
      return result(await call("events", { limit: 50, ...params }));
    },
  });
}
