import { isReservedName } from "../../protocol/index.js";
import type { JobTable } from "../jobs/job-table.js";

/**
 * The profile's name, or with `-2`, `-3`, ... when a job has it already (names compared folded):
 * names stay handy. The table says which names are held, and where the last search for this base
 * found a free suffix, so that a fleet of a thousand `bench-N` is not walked at each dispatch.
 */
export function freeName(jobs: JobTable, base: string): string {
  const free = (name: string) => !jobs.holdsName(name) && !isReservedName(name);
  if (free(base)) return base;
  for (let n = jobs.suffixSearchFrom(base); ; n++) {
    if (free(`${base}-${n}`)) {
      jobs.suffixFound(base, n);
      return `${base}-${n}`;
    }
  }
}
