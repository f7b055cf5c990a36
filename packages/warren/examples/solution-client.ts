/**
 * A remote client for a sweep's agent mix: plays every agent it is given with its scenario's
 * solution runner, over HTTP. A template for a client that plays with a language model, and a
 * check that remote play changes nothing: the runs hash as with every agent on its runner.
 *
 *   {"name": "remote-engineer", "scenarios": ["bridge_repair"], "remote": ["engineer-1"],
 *    "command": ["node", "--import", "tsx", "examples/solution-client.ts"]}
 *
 * The sweep starts it once per run with WARREN_URL, WARREN_RUN_ID, WARREN_AGENTS (comma-separated)
 * and WARREN_SCENARIO in its environment. Exits 0 when the run completed.
 */

import { type CommandPayload, playAgent, WarrenClient } from "../src/client/index.js";
import type { Decision } from "../src/engine/index.js";
import { findScenario } from "../src/scenarios/index.js";

function payloadOf(decision: Decision): CommandPayload {
  if (decision.kind === "action") return { action: decision.action, args: decision.args };
  if (decision.kind === "sleep") return { sleep_ms: decision.sleep_ms };
  return { noop: true };
}

const need = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set; a sweep sets it for its remote client`);
  return value;
};

const scenario = findScenario(need("WARREN_SCENARIO"));
if (!scenario) throw new Error(`unknown scenario ${process.env.WARREN_SCENARIO}`);
const warren = new WarrenClient(need("WARREN_URL"));
const runId = need("WARREN_RUN_ID");
const statuses = await Promise.all(
  need("WARREN_AGENTS")
    .split(",")
    .map((agentId) => {
      const runner = scenario.solution(agentId);
      return playAgent(warren.agent(runId, agentId, { holder: "solution-client" }), ({ envelope }) =>
        payloadOf(runner.decide(envelope.observation)),
      );
    }),
);
process.exitCode = statuses.every((s) => s === "completed") ? 0 : 1;
