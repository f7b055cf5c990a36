/**
 * A profile's `blockedPatterns`: regular expressions (JavaScript syntax, no slashes) that mark a
 * screen line as the agent waiting for the user, beside the prompts its reader knows. Checked when
 * `roost.json` is read; compiled once per profile and kept, with the profile's reader, until the
 * file changes.
 */
import { statSync } from "node:fs";
import { RoostError } from "../../protocol/index.js";
import { loadProfiles } from "../config.js";
import { type AgentReader, readerFor } from "./agent-reader.js";

export const MAX_BLOCKED_PATTERNS = 20;
export const MAX_BLOCKED_PATTERN_LENGTH = 500;

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

/** roost.json is looked at again at most this often (screens change many times a second). */
const RECHECK_MS = 1000;

interface Cached {
  checkedAt: number;
  mtimeMs: number;
  byProfile: Map<string, { patterns: RegExp[]; reader: string | undefined }>;
}

const cache = new Map<string, Cached>();

/**
 * How a profile's screen is read: its compiled patterns and its reader. A `roost.json` that cannot be
 * read now gives no patterns (the dispatch that made the job read it whole; a later bad edit is
 * reported by the next dispatch), and the reader the command's name says.
 */
export function screenRulesOf(
  file: string,
  profile: string,
  command: readonly string[],
): { patterns: RegExp[]; reader: AgentReader } {
  let cached = cache.get(file);
  const now = Date.now();
  if (!cached || now - cached.checkedAt >= RECHECK_MS) {
    const mtimeMs = statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? -1;
    if (cached) cached.checkedAt = now;
    if (!cached || cached.mtimeMs !== mtimeMs) {
      const byProfile: Cached["byProfile"] = new Map();
      try {
        for (const [name, p] of loadProfiles(file)) {
          const patterns = (p.blockedPatterns ?? []).map((source) => new RegExp(source, "u"));
          byProfile.set(name, { patterns, reader: p.reader });
        }
      } catch {
        // Left empty: see above.
      }
      cached = { checkedAt: now, mtimeMs, byProfile };
      cache.set(file, cached);
    }
  }
  const rules = cached.byProfile.get(profile);
  return { patterns: rules?.patterns ?? [], reader: readerFor(rules?.reader, command) };
}
