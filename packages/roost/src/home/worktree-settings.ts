/**
 * `roost.json`'s worktree settings: `worktree` (true or "auto") for every profile that does not say,
 * `worktreeRoot` (where worktrees go; default under the state folder) and `worktreeSetup` (files to
 * copy from the repository into a new worktree, and a command to run there before the agent).
 */
import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { RoostError } from "../protocol/index.js";
import type { StatePaths } from "./paths.js";

export type WorktreeMode = boolean | "auto";

export interface WorktreeSetup {
  /** Paths relative to the repository's top (`.env`): copied when they exist. */
  copy: string[];
  /** argv, or a string run by `/bin/sh -c`; in the new worktree. */
  command: string[] | string | null;
}

export interface WorktreeSettings {
  worktree: WorktreeMode;
  root: string;
  setup: WorktreeSetup | null;
}

export function isWorktreeMode(v: unknown): v is WorktreeMode {
  return v === true || v === false || v === "auto";
}

/** `worktreeSetup` checked: `bad_request` naming the key when it is not what it should be. */
export function checkWorktreeSetup(file: string, key: string, raw: unknown): WorktreeSetup {
  const bad = (want: string): never => {
    throw new RoostError("bad_request", `${file}: ${key} must be ${want}`);
  };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    bad('an object {"copy": [...], "command": ...}');
  const { copy = [], command = null } = raw as Record<string, unknown>;
  if (
    !Array.isArray(copy) ||
    copy.some((c) => typeof c !== "string" || c === "" || isAbsolute(c) || c.split(/[\\/]/).includes(".."))
  )
    bad("with copy a list of paths inside the repository");
  const argvOk = Array.isArray(command) && command.length > 0 && command.every((c) => typeof c === "string");
  if (command !== null && !argvOk && !(typeof command === "string" && command.trim() !== ""))
    bad("with command a non-empty array of strings or a non-empty string");
  return { copy: copy as string[], command: command as string[] | string | null };
}

/** Read on every use (an edit applies at once); a file that is missing means the defaults. */
export function readWorktreeSettings(paths: StatePaths): WorktreeSettings {
  let raw: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(readFileSync(paths.config, "utf8")) as unknown;
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
      raw = parsed as Record<string, unknown>;
  } catch {
    raw = {};
  }
  const file = paths.config;
  if (raw.worktree !== undefined && !isWorktreeMode(raw.worktree))
    throw new RoostError("bad_request", `${file}: worktree must be true, false or "auto"`);
  if (raw.worktreeRoot !== undefined && (typeof raw.worktreeRoot !== "string" || raw.worktreeRoot === ""))
    throw new RoostError("bad_request", `${file}: worktreeRoot must be a folder path`);
  return {
    worktree: (raw.worktree as WorktreeMode | undefined) ?? false,
    root: (raw.worktreeRoot as string | undefined) ?? join(paths.stateDir, "worktrees"),
    setup:
      raw.worktreeSetup === undefined ? null : checkWorktreeSetup(file, "worktreeSetup", raw.worktreeSetup),
  };
}
