import { readFileSync } from "node:fs";
import { PEER_LIMITS } from "../../protocol/index.js";

/** The agent-to-agent settings of the user's `roost.json` (a project's config never sets them). */
export interface PeerSettings {
  externalMessages: boolean;
  maxDepth: number;
  maxChildren: number;
  maxTreeSessions: number;
  maxSpawned: number;
  spawnsPerMinute: number;
}

const LIMIT_KEYS = {
  maxDepth: ["agentMaxDepth", PEER_LIMITS.depth],
  maxChildren: ["agentMaxChildren", PEER_LIMITS.children],
  maxTreeSessions: ["agentMaxTreeSessions", PEER_LIMITS.tree],
  maxSpawned: ["agentMaxSpawned", PEER_LIMITS.spawned],
  spawnsPerMinute: ["agentSpawnsPerMinute", PEER_LIMITS.spawnsPerMinute],
} as const;

/**
 * Read on every use (an edit applies at once). A missing or unreadable file, or a value of the
 * wrong type, leaves the default: reach stays closed and the caps stay the spec's.
 */
export function readPeerSettings(configFile: string): PeerSettings {
  let raw: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(readFileSync(configFile, "utf8")) as unknown;
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
      raw = parsed as Record<string, unknown>;
  } catch {
    raw = {};
  }
  const limit = ([key, fallback]: readonly [string, number]) => {
    const v = raw[key];
    return typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : fallback;
  };
  return {
    externalMessages: raw.agentExternalMessages === true,
    maxDepth: limit(LIMIT_KEYS.maxDepth),
    maxChildren: limit(LIMIT_KEYS.maxChildren),
    maxTreeSessions: limit(LIMIT_KEYS.maxTreeSessions),
    maxSpawned: limit(LIMIT_KEYS.maxSpawned),
    spawnsPerMinute: limit(LIMIT_KEYS.spawnsPerMinute),
  };
}
