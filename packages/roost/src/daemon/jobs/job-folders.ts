/** Jobs' folders under the state folder's `jobs/`: removed with their job (see `strays.ts` for the others). */
import { rmSync } from "node:fs";

/** Removes a job's folder; a file appearing while it is removed (ENOTEMPTY) is retried, not fatal. */
export function removeJobFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
}
