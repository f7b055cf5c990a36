import { JOB_ENV, type JobIdentity, jobIdentityFromEnv } from "../protocol/environment.js";

/**
 * The job this pi runs as, or undefined outside a job. The token is taken out of the environment
 * once read, so that tools and scripts do not inherit it by accident (not a boundary: the user's
 * own processes are trusted, as the daemon's socket trusts them).
 */
export function takeJobIdentity(env: NodeJS.ProcessEnv = process.env): JobIdentity | undefined {
  const identity = jobIdentityFromEnv(env);
  for (const name of JOB_ENV.token) delete env[name];
  return identity;
}
