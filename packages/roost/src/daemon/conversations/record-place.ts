/** Where a job's session record is looked for: its program's environment, its folder, its start. */
import { realpathSync } from "node:fs";
import type { Job } from "../jobs/job.js";
import { spawnEnvironment } from "../jobs/spawn-environment.js";
import type { RecordPlace } from "./session-record.js";

/** The folder as the program sees it (its working directory, symbolic links resolved). */
function realFolder(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return cwd;
  }
}

export function recordPlace(job: Job, sessionId: string | null, startedAt: number): RecordPlace {
  return { env: spawnEnvironment(job.env), cwd: realFolder(job.cwd), sessionId, startedAt };
}
