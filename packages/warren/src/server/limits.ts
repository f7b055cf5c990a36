/**
 * The server's own defaults, each documented in the README's server section. The limits a client
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
