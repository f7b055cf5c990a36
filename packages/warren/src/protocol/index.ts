/**
 * warren-agent/0, declared once: every request, response, envelope, briefing, receipt, error
 * body and spectator frame, and the lines of a trajectory file, as a JSON Schema (TypeBox) with
 * its static type derived from it, the
 * routes that carry them, and the OpenAPI document built from both. The server validates with
 * these schemas, the TypeScript client is typed by them, and tests check every answer against them.
 */
export * from "./briefing.js";
export * from "./commands.js";
export * from "./errors.js";
export * from "./events.js";
export * from "./leases.js";
export * from "./limits.js";
export * from "./observation.js";
export * from "./openapi.js";
export * as operations from "./operations.js";
export { type Answer, COMMON_ERRORS, OPERATIONS, type Operation } from "./operations.js";
export * from "./policies.js";
export * from "./runs.js";
export * from "./scores.js";
export * from "./spectator.js";
export * from "./spectator-close.js";
export * from "./trajectory.js";
export * from "./usage.js";
export * from "./validate.js";
export * from "./version.js";
