/** The limits a client sees on the wire, each enforced by the server and documented in OpenAPI. */

/** A long poll waits at most this many seconds; larger `wait` values are cut to it. */
export const MAX_WAIT_S = 30;
/** deadline_s of a run: more than 0, at most a day. */
export const DEFAULT_DEADLINE_S = 60;
export const MAX_DEADLINE_S = 86_400;
/** max_wall_s of a run: the wall time after which it fails; default an hour, at most a week. */
export const DEFAULT_MAX_WALL_S = 3_600;
export const MAX_WALL_S = 604_800;
/** max_sim_s of a run: the sim time after which it fails (the scenario's own limit if sooner). */
export const MAX_SIM_S = 31_536_000;
/** `holder=` labels on claim. */
export const MAX_HOLDER_CHARS = 64;
/** Request bodies. */
export const MAX_BODY_BYTES = 1 << 20;
/** What one command may carry (the engine's limits, refused whole with 422 limit_exceeded). */
export {
  MAX_ARGS_FIELDS,
  MAX_ARGS_JSON_CHARS,
  MAX_COMMAND_FIELDS,
  MAX_COMMAND_ID_CHARS,
  MAX_NAME_CHARS,
} from "../engine/command-limits.js";
/** What one command may report as its usage (422 limit_exceeded past either). */
export { MAX_USAGE_COST, MAX_USAGE_TOKENS } from "../engine/command-usage.js";
/** Run ids, lease tokens and other ids a client sends in a path or query. */
export const MAX_ID_CHARS = 128;
/** Agents named in controlled_agents, or by npc_policy. */
export const MAX_NAMED_AGENTS = 256;
/** claim_within_s of a run: wall seconds it waits to be claimed before it ends abandoned. */
export const DEFAULT_CLAIM_WITHIN_S = 300;
export const MAX_CLAIM_WITHIN_S = 3_600;
