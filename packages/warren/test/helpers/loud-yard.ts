import type { ScenarioDefinition } from "../../src/engine/index.js";
import { SCENARIOS } from "../../src/scenarios/index.js";
import { catalogOf } from "../../src/server/index.js";
import { yardScenario } from "./engine-runs.js";
import { call } from "./server.js";

/**
 * A yard whose one agent, shouter-1, can `shout {text}`: each shout is accepted and logs its text
 * twice (the decision and the action), so a test can fill a spectator's buffers quickly with
 * real simulation events.
 */
export const loudYard: ScenarioDefinition = {
  ...yardScenario(["shouter-1"], 0),
  name: "loud_yard",
  tools: [
    {
      spec: {
        name: "shout",
        description: "Shout something; everyone hears it.",
        lane: "voice",
        durative: false,
        input_schema: {
          type: "object",
          properties: { text: { type: "string" } },
          required: ["text"],
          additionalProperties: false,
        },
      },
      unavailable: () => "",
      offer: () => ({ params: {}, suggestions: [{ text: "hello" }] }),
      begin: () => ({ durationMs: 1 }),
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
      args: { text: "x".repeat(bytes) },
    },
  });
  if (receipt.json?.status !== "accepted") throw new Error(`shout: ${JSON.stringify(receipt.json)}`);
}
