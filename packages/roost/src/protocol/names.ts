import { RoostError } from "./errors.js";
import { LIMITS } from "./limits.js";
import { terminalSafe } from "./terminal-text.js";

/**
 * The name only the concierge's job may have (not a dispatch's, a rename's or a report's). Here
 * rather than beside the concierge's schemas: the agent client checks names and loads no typebox.
 */
export const CONCIERGE_NAME = "concierge";

/**
 * Folds a name to one line as it is kept and shown: escape sequences and invisible characters
 * (bidi overrides, zero-width ones) go, control characters and line breaks become spaces, runs
 * collapse.
 */
export function foldName(name: string, max: number = LIMITS.name): string {
  return terminalSafe(name)
    .replace(/\s{2,}/g, " ")
    .trim()
    .slice(0, max);
}

/**
 * A name as names are compared (a job's name that picks it, a peer's name in its tree, a free
 * name for a new job): its compatibility form (NFKC: `ｃｏｎｃｉｅｒｇｅ`, `ﬁ`), case folded,
 * invisible characters out, blanks as one space.
 */
export function nameKey(name: string): string {
  return foldName(name.normalize("NFKC"), Number.MAX_SAFE_INTEGER).normalize("NFKC").toLowerCase();
}

/** Latin look-alikes of other scripts (Cyrillic, Greek) and digits, as the reserved name reads them. */
const LOOK_ALIKES: Record<string, string> = {
  а: "a",
  с: "c",
  е: "e",
  о: "o",
  р: "p",
  х: "x",
  у: "y",
  і: "i",
  ј: "j",
  ѕ: "s",
  ԁ: "d",
  һ: "h",
  ɡ: "g",
  ο: "o",
  ι: "i",
  ν: "v",
  κ: "k",
  α: "a",
  ε: "e",
  ϲ: "c",
  ɩ: "i",
  "0": "o",
  "1": "i",
};

/**
 * What the reserved name is told apart by: the name's key with everything but letters and digits
 * out (`concierge!`, `con-cierge`, `c o n c i e r g e`) and Latin look-alikes read as Latin.
 */
function reservedKey(name: string): string {
  return [...nameKey(name).replace(/[^\p{L}\p{N}]/gu, "")].map((c) => LOOK_ALIKES[c] ?? c).join("");
}

/** Whether a name would pass for the concierge's. */
export function isReservedName(name: string): boolean {
  return reservedKey(name) === CONCIERGE_NAME;
}

/** `concierge` is the concierge's: no other session takes it or a name that passes for it. */
export function refuseReservedName(name: string, field = "name"): void {
  if (isReservedName(name))
    throw new RoostError(
      "reserved_name",
      `${field} ${JSON.stringify(foldName(name))} is or looks like "${CONCIERGE_NAME}", the concierge's name; choose another`,
    );
}
