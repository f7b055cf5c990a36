/** The job's identity in an agent's environment: the new name first, then the older one. */
export const JOB_ENV = {
  id: ["ROOST_JOB_ID", "PI_JOB_ID"],
  token: ["ROOST_JOB_TOKEN", "PI_JOB_TOKEN"],
  socket: ["ROOST_SOCKET", "PI_DAEMON_SOCK"],
  dir: ["ROOST_JOB_DIR", "PI_JOB_DIR"],
} as const;

export interface JobIdentity {
  id: string;
  token: string;
  socket: string;
  dir: string;
}

/** Reads the job's identity, or undefined outside a job. */
export function jobIdentityFromEnv(env: NodeJS.ProcessEnv = process.env): JobIdentity | undefined {
  const read = (names: readonly string[]) =>
    names.map((n) => env[n]).find((v) => v !== undefined && v !== "");
  const id = read(JOB_ENV.id);
  const token = read(JOB_ENV.token);
  const socket = read(JOB_ENV.socket);
  const dir = read(JOB_ENV.dir);
  if (!id || !token || !socket || !dir) return undefined;
  return { id, token, socket, dir };
}

/**
 * The environment a job is started with, for the parts of its identity given: every name, new and
 * old. The job's record keeps all but the token; the token is added at each start.
 */
export function jobEnvironment(identity: Partial<JobIdentity>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(JOB_ENV) as (keyof JobIdentity)[]) {
    const value = identity[key];
    if (value !== undefined) for (const name of JOB_ENV[key]) out[name] = value;
  }
  return out;
}
