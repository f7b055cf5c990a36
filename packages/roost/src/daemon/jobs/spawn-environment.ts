/**
 * A job's environment: what its record keeps (its profile's variables, its terminal type and its
 * identity), laid over the daemon's environment as it is when the process starts. The record never
 * holds the daemon's inherited variables (an API key in the person's shell stays out of the
 * database); a job started again gets them afresh from the daemon.
 */
export function spawnEnvironment(
  kept: Record<string, string>,
  daemonEnv: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(daemonEnv)) if (value !== undefined) out[name] = value;
  return { ...out, ...kept };
}
