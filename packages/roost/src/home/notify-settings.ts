import { readFileSync } from "node:fs";
import { Value } from "typebox/value";
import { RoostConfigSchema } from "./config-check.js";
import type { StatePaths } from "./paths.js";

/** How long a row stays in a moment before it is told of: a row that only churns is not. */
export const NOTIFY_DEBOUNCE_MS = 1000;

export interface NotifySettings {
  /** The `notify.command` argv; null: none (or one the config check refuses, logged at start). */
  command: string[] | null;
  debounceMs: number;
  /** Whether the hub rings the terminal's bell when a session starts waiting (`hub.bell`, default on). */
  bell: boolean;
}

/** The `notify` and `hub` sections of `roost.json`, read on each use so an edit applies at once. */
export function readNotifySettings(paths: Pick<StatePaths, "config">): NotifySettings {
  let parsed: Record<string, unknown> = {};
  try {
    const value = JSON.parse(readFileSync(paths.config, "utf8"));
    if (typeof value === "object" && value !== null) parsed = value;
  } catch {
    // No file, or one the config check names at start: no command, the defaults.
  }
  const notify = Value.Check(RoostConfigSchema.properties.notify, parsed.notify)
    ? (parsed.notify as { command?: string[]; debounceMs?: number } | undefined)
    : undefined;
  const hub = Value.Check(RoostConfigSchema.properties.hub, parsed.hub)
    ? (parsed.hub as { bell?: boolean } | undefined)
    : undefined;
  return {
    command: notify?.command ?? null,
    debounceMs: notify?.debounceMs ?? NOTIFY_DEBOUNCE_MS,
    bell: hub?.bell ?? true,
  };
}
