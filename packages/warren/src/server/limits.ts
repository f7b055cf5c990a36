/**
 * The server's own defaults, each documented in docs/server.md and docs/security-and-limits.md. The limits a client
 * sees on the wire (wait cap, body size, deadline_s…) are declared in protocol/limits.ts.
 */

export const DEFAULT_LEASE_TTL_S = 300;
/** A spectator whose unread bytes pass this is lagged and closed with 1013. */
export const DEFAULT_SPECTATOR_MAX_BUFFERED_BYTES = 1 << 20;
/** Runs not yet ended at once. */
export const DEFAULT_MAX_LIVE_RUNS = 100;
/** Ended runs remembered; older ones are forgotten (404). */
export const DEFAULT_KEEP_ENDED_RUNS = 1000;
/** Events the ended runs kept whole may hold together; older ended runs keep only their summary (410). */
export const DEFAULT_ENDED_RUN_EVENTS = 200_000;
/** Bytes (retained size as JSON) the ended runs kept whole may hold together, beside the events. */
export const DEFAULT_ENDED_RUN_BYTES = 128 << 20;
/** Live runs one client (by remote address) may have at once; its further creations are 429. */
export const DEFAULT_MAX_RUNS_PER_CLIENT = 20;
/** The byte budget (JSON characters) of a run's kept events and commands; past it the run ends over_budget. */
export { DEFAULT_MAX_RETAINED_BYTES as DEFAULT_MAX_RUN_BYTES } from "../engine/run.js";
/** Wall seconds a created run waits for its claims unless its request says otherwise. */
export { DEFAULT_CLAIM_WITHIN_S } from "../protocol/limits.js";
