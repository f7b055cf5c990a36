import { CONCIERGE_NAME, isReservedName, nameKey } from "../../protocol/index.js";

/**
 * Names as compared, by name. Folding a name runs it through the terminal filter and NFKC twice,
 * and every dispatch compares its name against every job's: at a thousand jobs that was the most
 * of a dispatch's own time. Jobs' names repeat from one dispatch to the next, so they are folded once.
 */
const keys = new Map<string, string>();
/** Past this many names the memo starts again, so renames and removals cannot grow it without end. */
const KEYS_KEPT = 20_000;

function keyOf(name: string): string {
  let key = keys.get(name);
  if (key === undefined) {
    if (keys.size >= KEYS_KEPT) keys.clear();
    key = nameKey(name);
    keys.set(name, key);
  }
  return key;
}

/**
 * The profile's name, or with `-2`, `-3`, ... when a job has it already (names compared folded):
 * names stay handy.
 */
export function freeName(names: Iterable<string>, base: string): string {
  const taken = new Set([CONCIERGE_NAME]);
  for (const name of names) taken.add(keyOf(name));
  const free = (name: string) => !taken.has(keyOf(name)) && !isReservedName(name);
  if (free(base)) return base;
  for (let n = 2; ; n++) if (free(`${base}-${n}`)) return `${base}-${n}`;
}

/** The jobs' names, for `freeName`. */
export function* jobNames(jobs: Iterable<{ name: string }>): Iterable<string> {
  for (const job of jobs) yield job.name;
}
