/** The server's limits and defaults, each documented in the README's server section. */

/** A long poll waits at most this many seconds; larger `wait` values are capped to it. */
export const MAX_WAIT_S = 30;
export const DEFAULT_LEASE_TTL_S = 300;
/** deadline_s of a run: more than 0, at most a day. */
export const MAX_DEADLINE_S = 86_400;
/** A spectator whose unread bytes pass this is lagged and closed with 1013. */
export const DEFAULT_SPECTATOR_MAX_BUFFERED_BYTES = 1 << 20;
/** `holder=` labels on claim. */
export const MAX_HOLDER_CHARS = 64;
export const MAX_BODY_BYTES = 1 << 20;
/** Runs not yet ended at once. */
export const DEFAULT_MAX_LIVE_RUNS = 100;
/** Ended runs remembered; older ones are forgotten (404). */
export const DEFAULT_KEEP_ENDED_RUNS = 1000;
