/**
 * What the process host runs and what the jobs folder holds that no job of the store is: a job the
 * person removed (its removal is kept in the store until it is finished: the host let go of it,
 * its folder gone) is finished off; anything else is left alone and reported. The store not knowing
 * a job is no proof it is not wanted: the database may be one brought back from a backup.
 */
import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";
import type { HostJobInfo, ProcessHost } from "../host/api.js";
import { removeJobFolder } from "./job-folders.js";

export interface Strays {
  /** Jobs the host has (running or ended) that the store does not know. */
  hostJobs: HostJobInfo[];
  /** Folders under `jobs/` of no job the store knows. */
  folders: string[];
}

interface Known {
  has(id: string): boolean;
}

function entriesOf(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
}

/** Splits what no job is into what was removed (to finish off) and what is unknown (to leave). */
export function sortStrays(
  hostJobs: HostJobInfo[],
  jobsDir: string,
  jobs: Known,
  removed: Known,
): { removed: Strays; unknown: Strays } {
  const folders = entriesOf(jobsDir)
    .filter((entry) => entry.isDirectory() && !jobs.has(entry.name))
    .map((entry) => entry.name);
  const strays = hostJobs.filter((info) => !jobs.has(info.id));
  return {
    removed: {
      hostJobs: strays.filter((info) => removed.has(info.id)),
      folders: folders.filter((name) => removed.has(name)),
    },
    unknown: {
      hostJobs: strays.filter((info) => !removed.has(info.id)),
      folders: folders.filter((name) => !removed.has(name)),
    },
  };
}

/** One line naming what is left alone, or undefined when there is nothing. */
export function describeStrays(unknown: Strays): string | undefined {
  if (unknown.hostJobs.length === 0 && unknown.folders.length === 0) return undefined;
  const parts: string[] = [];
  if (unknown.hostJobs.length > 0)
    parts.push(
      `the process host's ${unknown.hostJobs
        .map((j) => `${j.id} (${j.running ? `running, pid ${j.pid}` : "ended"})`)
        .join(", ")}`,
    );
  if (unknown.folders.length > 0) parts.push(`the job folders ${unknown.folders.join(", ")}`);
  return `${parts.join(" and ")}: unknown to the store, left alone`;
}

/**
 * As the host's jobs are taken up: finishes the removals the store holds, and leaves (and logs) what
 * the store does not know.
 */
export async function settleStrays(
  host: ProcessHost,
  hostJobs: HostJobInfo[],
  jobsDir: string,
  jobs: Known,
  removed: Known,
  log: (line: string) => void,
): Promise<void> {
  const sorted = sortStrays(hostJobs, jobsDir, jobs, removed);
  for (const info of sorted.removed.hostJobs)
    await host
      .remove(info.id)
      .catch((err: unknown) =>
        log(`roost: job ${info.id}: adopt: finishing its removal in the host failed: ${String(err)}`),
      );
  for (const name of sorted.removed.folders) removeJobFolder(join(jobsDir, name));
  const unknown = describeStrays(sorted.unknown);
  if (unknown) log(`roost: ${unknown} (\`roost doctor\` lists them; \`roost adopt ID\` makes a job of one)`);
}
