import { readFileSync } from "node:fs";
import type { StatePaths } from "./paths.js";

/**
 * `resumeAfterReboot` in `roost.json`: whether the daemon brings back by itself the jobs it finds
 * interrupted (as `roost resume` would). Off unless it is `true`; read on each use, so an edit applies
 * at the next start. A value of another kind is a finding of the config check, and counts as off.
 */
export function readResumeAfterReboot(paths: Pick<StatePaths, "config">): boolean {
  try {
    const parsed = JSON.parse(readFileSync(paths.config, "utf8")) as { resumeAfterReboot?: unknown } | null;
    return parsed?.resumeAfterReboot === true;
  } catch {
    return false;
  }
}
