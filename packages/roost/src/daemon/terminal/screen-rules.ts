/**
 * How a profile's screen is read: its `blockedPatterns` (checked when `roost.json` is read,
 * `home/blocked-patterns.ts`) compiled once per profile and kept, with the profile's reader, until
 * the file changes.
 */
import { statSync } from "node:fs";
import { loadProfiles } from "../../home/profiles.js";
import type { AgentReader } from "./agent-reader.js";
import { readerFor } from "./reader-choice.js";

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
