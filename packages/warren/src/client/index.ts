/**
 * warren-sim/client: a TypeScript client of warren-agent/0.
 *
 *   const warren = new WarrenClient("http://127.0.0.1:8080");
 *   const run = await warren.createRun("bridge_repair", { seed: 3, controlled_agents: ["engineer-1"] });
 *   const status = await playAgent(warren.agent(run.run_id, "engineer-1"), ({ envelope }) => ({ noop: true }));
 */
export type {
  Affordance,
  Briefing,
  ClaimResponse,
  CommandBody,
  CommandPayload,
  CreateRunRequest,
  Envelope,
  ErrorBody,
  LaggedFrame,
  Observation,
  Receipt,
  ReleaseResponse,
  RunEvent,
  RunStatus,
  RunView,
  ScenarioInfo,
  SpectatorFrame,
  Usage,
} from "../protocol/index.js";
export {
  type Decide,
  type DecidedCommand,
  type DecisionContext,
  type PlayOptions,
  playAgent,
} from "./agent-loop.js";
export { AgentSession, type AgentSessionOptions, RunEndedError } from "./agent-session.js";
export { WarrenHttpError } from "./http.js";
export { type SpectateOptions, spectate } from "./spectate.js";
export { type CreateRunOptions, WarrenClient, type WarrenClientOptions } from "./warren-client.js";
