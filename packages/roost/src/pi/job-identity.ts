import { JOB_ENV, type JobIdentity, jobIdentityFromEnv } from "../protocol/environment.js";

/** Where the identity is kept once taken: pi loads its extensions anew on /new, /resume and /fork. */
const KEPT = Symbol.for("pi-roost.job-identity");

type Keeper = { [KEPT]?: JobIdentity };

/**
 * The job this pi runs as, or undefined outside a job. The token is taken out of the environment
 * once read, so that tools and scripts do not inherit it by accident (not a boundary: the user's
 * own processes are trusted, as the daemon's socket trusts them); the identity is kept in the
 * process for the extension's next load.
 */
export function takeJobIdentity(
  env: NodeJS.ProcessEnv = process.env,
  keeper: object = globalThis,
): JobIdentity | undefined {
  const kept = keeper as Keeper;
  const identity = jobIdentityFromEnv(env) ?? kept[KEPT];
  for (const name of JOB_ENV.token) delete env[name];
  if (identity) kept[KEPT] = identity;
  return identity;
}
