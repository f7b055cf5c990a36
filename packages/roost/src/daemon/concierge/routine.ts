import type { JobRow } from "../../protocol/index.js";

/** A choice that says go on: what a routine question offers. */
const AFFIRMATIVE =
  /^(y|yes|ok|okay|continue|proceed|go on|go ahead|sure|accept|confirm|allow|approve|retry|next|done)\b/i;

/**
 * Words of what a person decides for themselves: spending, deleting, shipping, overwriting,
 * giving rights. A question or a choice that names one is not routine.
 */
const DESTRUCTIVE =
  /\b(delet\w*|remov\w*|rm|drop\w*|destroy\w*|wip\w*|eras\w*|purg\w*|truncat\w*|overwrit\w*|reset\w*|force\w*|kill\w*|format\w*|deploy\w*|publish\w*|releas\w*|push\w*|merg\w*|rebas\w*|prod|production|pay\w*|spend\w*|buy\w*|purchas\w*|charg\w*|bill\w*|sudo|root|password\w*|secret\w*|token\w*|credential\w*|permission\w*|grant\w*|revok\w*|uninstall\w*|shutdown|migrat\w*|email\w*)\b/i;

/**
 * Whether the concierge may answer this question under `answer: routine`, and why not: the row
 * waits for an answer to a question that offers choices, one of them says go on (yes, continue,
 * ok, proceed...), neither the question nor any choice names something destructive (deleting,
 * deploying, pushing, paying, overwriting, giving rights...), and the answer is one of the choices
 * (its text or its number). Null when it may.
 */
export function notRoutine(row: JobRow, answer: string): string | null {
  const question = row.question ?? "";
  if (row.choices.length === 0) return "the question offers no choices";
  if (!row.choices.some((c) => AFFIRMATIVE.test(c.trim())))
    return "none of its choices says go on (yes, continue, ok, proceed)";
  const named = [question, ...row.choices].map((text) => DESTRUCTIVE.exec(text)?.[0]).find(Boolean);
  if (named) return `it names something for the person to decide ("${named}")`;
  const given = answer.trim().toLowerCase();
  const picked = row.choices.some((c, i) => c.trim().toLowerCase() === given || String(i + 1) === given);
  if (!picked) return `the answer is not one of its choices (${row.choices.join(", ")})`;
  return null;
}
