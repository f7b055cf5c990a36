import { type Static, Type } from "typebox";
import { NPC_POLICIES } from "../engine/types.js";
import { MAX_NAMED_AGENTS } from "./limits.js";

const NPC_POLICY_TEXT =
  "solution: the scenario's runner; none and noop: nothing (a noop at every wake); random: a random affordance; greedy: the nearest-looking gain";

export const NpcPolicy = Type.Enum(NPC_POLICIES, { title: "NpcPolicy", description: NPC_POLICY_TEXT });
export type NpcPolicy = Static<typeof NpcPolicy>;

export const NpcPolicies = Type.Union(
  [NpcPolicy, Type.Record(Type.String(), NpcPolicy, { maxProperties: MAX_NAMED_AGENTS })],
  {
    title: "NpcPolicies",
    description:
      "who plays the agents not controlled remotely: one policy for all, or one per agent id (unlisted agents: solution); default solution",
  },
);
export type NpcPolicies = Static<typeof NpcPolicies>;

export const Controller = Type.Enum(["remote", ...NPC_POLICIES], {
  title: "Controller",
  description: "remote: a client plays it; otherwise the policy that does",
});
export type Controller = Static<typeof Controller>;

export const AffordanceMode = Type.Enum(["ready", "all"], {
  title: "AffordanceMode",
  description:
    "ready: affordances offer what would succeed now, with suggestions; all: every tool and every known target, refusals explained; default ready",
});
export type AffordanceMode = Static<typeof AffordanceMode>;
