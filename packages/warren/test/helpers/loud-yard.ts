import type { ScenarioDefinition } from "../../src/engine/index.js";
import { SCENARIOS } from "../../src/scenarios/index.js";
import { catalogOf } from "../../src/server/index.js";
import { yardScenario } from "./engine-runs.js";
import { call } from "./server.js";

/**
 * A yard whose one agent, shouter-1, can `shout {bytes}`: each shout is accepted and its echo
 * logs that many characters, so a test can fill a spectator's buffers quickly with real
 * simulation events from small commands (a command's args are bounded; what the world makes of
 * them is the scenario's).
 */
export const loudYard: ScenarioDefinition = {
  ...yardScenario(["shouter-1"], 0),
  name: "loud_yard",
  tools: [
    {
      spec: {
        name: "shout",
        description: "Shout; the yard echoes it, that many characters long.",
        lane: "voice",
        durative: false,
        input_schema: {
          type: "object",
          properties: { bytes: { type: "integer", minimum: 1, maximum: 1 << 20 } },
          required: ["bytes"],
          additionalProperties: false,
        },
      },
      unavailable: () => "",
      offer: () => ({ params: {}, suggestions: [{ bytes: 5 }] }),
      begin: (ctx, agent, args) => {
        // A message to itself: a kind the protocol declares, so every frame matches its schema.
        ctx.emit("message", { from: agent.id, to: agent.id, text: "x".repeat(args.bytes as number) });
        return { durationMs: 1 };
      },
    },
  ],
};

/** The bundled scenarios and the loud yard. */
export const catalogWithLoudYard = catalogOf([...SCENARIOS, loudYard]);

/** shouter-1 answers its outstanding observation with a shout of `bytes` characters. */
export async function shout(base: string, runId: string, lease: string, bytes: number): Promise<void> {
  const agent = `/v1/runs/${runId}/agents/shouter-1`;
  const polled = await call(base, "GET", `${agent}/observations`, { query: { lease, wait: 5 } });
  if (polled.status !== 200) throw new Error(`poll: ${polled.status} ${JSON.stringify(polled.json)}`);
  const receipt = await call(base, "POST", `${agent}/commands`, {
    query: { lease },
    body: {
      command_id: `shout-${polled.json.seq}`,
      observation_id: polled.json.observation_id,
      action: "shout",
      args: { bytes },
    },
  });
  if (receipt.json?.status !== "accepted") throw new Error(`shout: ${JSON.stringify(receipt.json)}`);
}
