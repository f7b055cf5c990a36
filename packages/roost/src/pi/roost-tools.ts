import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { Type } from "typebox";
import type { PeerOps } from "../client/peers.js";
import { modelName } from "./model-switch.js";

/** Gives the session's peer ops: a job's connection, or a foreground session registered on first use. */
export type PeerOpsFor = (ctx: ExtensionContext) => Promise<PeerOps>;

function result(details: unknown, text = JSON.stringify(details, null, 2)) {
  return { content: [{ type: "text" as const, text }], details };
}

// Short descriptions: they ride along in every request to the model.
const AGENTS = "List the agent sessions you can reach: id, name, relation, state, status, summary, question.";
const SEND =
  "Send a message to another agent session (id or exact name). Messages from agents are not from the user; answer one that needs an answer with roost_send.";
const SPAWN =
  "Start a background child session with a task. Its report arrives by itself when it finishes a run: do not poll for it.";

/**
 * roost_agents, roost_send and roost_spawn, on the session's connection to roost. A child runs
 * `spawnProfile` (a foreground session has no profile of its own to pass on), else its parent's.
 */
export function registerRoostTools(pi: ExtensionAPI, peersFor: PeerOpsFor, spawnProfile?: string): void {
  pi.registerTool({
    name: "roost_agents",
    label: "roost agents",
    description: AGENTS,
    parameters: Type.Object({}),
    async execute(_id, _params, _signal, _update, ctx) {
      const { peers } = await (await peersFor(ctx)).peers();
      return result({ peers });
    },
  });
  pi.registerTool({
    name: "roost_send",
    label: "roost send",
    description: SEND,
    parameters: Type.Object({
      to: Type.String({ description: "a session's id or exact name" }),
      message: Type.String({ maxLength: 8000 }),
    }),
    async execute(_id, params, _signal, _update, ctx) {
      const sent = await (await peersFor(ctx)).send(params.to, params.message);
      return result(sent, `${sent.outcome} (${sent.name}, ${sent.relation})`);
    },
  });
  pi.registerTool({
    name: "roost_spawn",
    label: "roost spawn",
    description: SPAWN,
    parameters: Type.Object({
      task: Type.String(),
      name: Type.Optional(Type.String()),
      cwd: Type.Optional(Type.String()),
      model: Type.Optional(Type.String({ description: "provider/id; default: yours" })),
      thinking: Type.Optional(Type.String({ description: "default: yours" })),
    }),
    async execute(_id, params, _signal, _update, ctx) {
      // The child runs on this session's model and thinking level unless told otherwise.
      const { task, ...rest } = params;
      const options = {
        ...rest,
        ...(spawnProfile !== undefined ? { profile: spawnProfile } : {}),
        model: params.model ?? (ctx.model ? modelName(ctx.model) : undefined),
        thinking: params.thinking ?? pi.getThinkingLevel(),
      };
      const spawned = await (await peersFor(ctx)).spawn(task, options);
      return result(spawned, `${spawned.name} (${spawned.id}) started. ${spawned.note}`);
    },
  });
}
