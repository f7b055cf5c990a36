/** The warren-agent/0 HTTP server: `startServer({ port })`, or `buildServer()` to listen yourself. */

export { MAX_CLAIM_WITHIN_S } from "../protocol/limits.js";
export {
  buildServer,
  type ListeningServer,
  type ServerOptions,
  startServer,
  type WarrenServer,
} from "./app.js";
export type { HostedRun } from "./hosted-run.js";
export { HttpError } from "./http-error.js";
export * from "./limits.js";
export type { RunRegistry } from "./run-registry.js";
export { bundledScenarios, catalogOf, type ScenarioCatalog } from "./scenario-catalog.js";
