/**
 * Jobs' folders under the state folder's `jobs/`: removed with their job, and swept of strays (a
 * job removed while the daemon was down, or a daemon that died half-way through a removal).
 */
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

/** Removes a job's folder; a file appearing while it is removed (ENOTEMPTY) is retried, not fatal. */
export function removeJobFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
}

/** Removes every folder under `jobsDir` that belongs to no job in `jobs`. */
export function removeStrayJobFolders(jobsDir: string, jobs: { has(id: string): boolean }): void {
  for (const entry of readdirSync(jobsDir, { withFileTypes: true })) {
    if (entry.isDirectory() && !jobs.has(entry.name)) removeJobFolder(join(jobsDir, entry.name));
  }
}
