/**
 * A profile's `blockedPatterns`: regular expressions (JavaScript syntax, no slashes) that mark a
 * screen line as the agent waiting for the user, beside the prompts its reader knows.
 */
import { RoostError } from "../protocol/index.js";

const MAX_BLOCKED_PATTERNS = 20;
const MAX_BLOCKED_PATTERN_LENGTH = 500;

/** Checks `raw` as a profile's blockedPatterns; a bad one is a `bad_request` naming the key. */
export function checkBlockedPatterns(file: string, key: string, raw: unknown): string[] {
  const bad = (why: string): never => {
    throw new RoostError(
      "bad_request",
      `${file}: ${key}.blockedPatterns${why.startsWith("[") ? "" : " "}${why}`,
    );
  };
  if (!Array.isArray(raw)) bad("must be an array of regular expressions (strings)");
  const patterns = raw as unknown[];
  if (patterns.length > MAX_BLOCKED_PATTERNS) bad(`has more than ${MAX_BLOCKED_PATTERNS} patterns`);
  patterns.forEach((pattern, i) => {
    if (typeof pattern !== "string" || pattern === "") bad(`[${i}] must be a non-empty string`);
    const text = pattern as string;
    if (text.length > MAX_BLOCKED_PATTERN_LENGTH)
      bad(`[${i}] is longer than ${MAX_BLOCKED_PATTERN_LENGTH} characters`);
    try {
      new RegExp(text, "u");
    } catch (err) {
      bad(`[${i}] is not a valid regular expression: ${(err as Error).message}`);
    }
  });
  return patterns as string[];
}
