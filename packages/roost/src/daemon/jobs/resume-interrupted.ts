/**
 * Bringing back the jobs whose process went down with the process host (`interrupted`): each is
 * started again by the respawn path, so its program takes up its conversation and the replies
 * waiting for it are delivered once it is back. A job that cannot come back is said with why.
 */
import { type ResumeArgs, type ResumeResult, RoostError } from "../../protocol/index.js";
import type { Job } from "./job.js";
import type { Jobs } from "./jobs-service.js";

/** The jobs asked for, each with how it was named; a name that picks none is said at once. */
function targets(jobs: Jobs, args: ResumeArgs, result: ResumeResult): { named: string; job: Job }[] {
  const names = args.ids ?? [];
  if (args.all === true && names.length > 0)
    throw new RoostError("bad_request", "name the jobs to resume or give all (roost resume --all), not both");
  if (args.all === true)
    return jobs
      .rows()
      .filter((row) => row.lifecycle === "interrupted")
      .map((row) => ({ named: row.id, job: jobs.get(row.id)! }));
  if (names.length === 0)
    throw new RoostError("bad_request", "name the jobs to resume, or give all (roost resume --all)");
  const found = new Map<string, { named: string; job: Job }>();
  for (const named of names) {
    try {
      const job = jobs.resolve(named);
      if (!found.has(job.id)) found.set(job.id, { named, job });
    } catch (err) {
      if (!(err instanceof RoostError)) throw err;
      result.notResumed.push({ job: named, id: null, code: err.code, error: err.message });
    }
  }
  return [...found.values()];
}

/** Starts each interrupted job asked for again, one after another, and says how each went. */
export async function resumeInterrupted(jobs: Jobs, args: ResumeArgs): Promise<ResumeResult> {
  const result: ResumeResult = { resumed: [], notResumed: [] };
  for (const { named, job } of targets(jobs, args, result)) {
    const refuse = (code: RoostError["code"], error: string) =>
      result.notResumed.push({ job: named, id: job.id, code, error });
    if (job.lifecycle !== "interrupted") {
      refuse(
        "unsupported",
        `${job.name} is ${job.lifecycle}, not interrupted: roost respawn ${job.name} starts it again`,
      );
      continue;
    }
    try {
      await jobs.respawn(job.id);
    } catch (err) {
      if (!(err instanceof RoostError)) throw err;
      refuse(err.code, err.message);
      continue;
    }
    const now = jobs.get(job.id);
    if (now === undefined) refuse("not_found", `${job.name} was removed as it was resumed`);
    else if (now.lifecycle === "failed")
      refuse("not_started", `${now.name}: ${now.error ?? "it did not start"}`);
    else
      result.resumed.push({ id: now.id, name: now.name, restart: now.restart, resume: now.resume ?? null });
  }
  return result;
}

/**
 * `resumeAfterReboot`: the jobs an attach found interrupted come back by themselves; the daemon's
 * log says how many did, and why each other did not.
 */
export async function resumeByThemselves(
  jobs: Jobs,
  found: Job[],
  log: (line: string) => void,
): Promise<void> {
  const result = await resumeInterrupted(jobs, { ids: found.map((job) => job.id) });
  for (const job of result.notResumed)
    log(`roost: resumeAfterReboot: ${job.job} did not come back: ${job.code}: ${job.error}`);
  log(`roost: resumeAfterReboot: ${result.resumed.length} of ${found.length} interrupted jobs resumed`);
}
