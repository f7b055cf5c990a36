import { readFileSync } from "node:fs";
import { Value } from "typebox/value";
import { RoostConfigSchema } from "./config-check.js";
import type { StatePaths } from "./paths.js";

/** Where `roost web` listens unless told otherwise. */
export const WEB_DEFAULT_PORT = 7420;
export const WEB_DEFAULT_HOST = "127.0.0.1";

export interface WebSettings {
  /** Whether the daemon keeps `roost web` running beside it (`web.enabled`, default off). */
  enabled: boolean;
  port: number;
  host: string;
}

/**
 * The `web` section of `roost.json`: where `roost web` listens by default, and whether the daemon
 * runs it. A section the config check refuses (named at the daemon's start) counts as absent.
 */
export function readWebSettings(paths: Pick<StatePaths, "config">): WebSettings {
  let web: { enabled?: boolean; port?: number; host?: string } | undefined;
  try {
    const parsed = JSON.parse(readFileSync(paths.config, "utf8")) as { web?: unknown } | null;
    if (Value.Check(RoostConfigSchema.properties.web, parsed?.web)) web = parsed?.web as typeof web;
  } catch {
    // No file, or one the config check names at start: the defaults.
  }
  return {
    enabled: web?.enabled ?? false,
    port: web?.port ?? WEB_DEFAULT_PORT,
    host: web?.host ?? WEB_DEFAULT_HOST,
  };
}

/**
 * Set in the environment of the `roost web` the daemon runs: it ends when its standard input does
 * (the daemon went away, even killed), so that it never holds the port against the next daemon's.
 */
export const WEB_SUPERVISED_ENV = "ROOST_WEB_SUPERVISED";
