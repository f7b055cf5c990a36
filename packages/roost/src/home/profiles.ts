/**
 * `roost.json`'s profiles, read and checked: what the daemon dispatches from and the hub's picker
 * lists. How a profile's command line is made is the daemon's (`daemon/jobs/profile-argv.ts`).
 */
import { readFileSync } from "node:fs";
import { RoostError } from "../protocol/index.js";
import type { AgentProfile } from "./agent-profile.js";
import { checkBlockedPatterns } from "./blocked-patterns.js";
import { PI_PROFILE, piProfile } from "./pi-profile.js";
import { isReaderName, READER_NAMES } from "./reader-names.js";
import { checkWorktreeSetup, isWorktreeMode } from "./worktree-settings.js";

/**
 * Profiles roost has without a `roost.json`: the coding agents it knows, run as terminal agents with
 * the task typed at their prompt. A profile of the same name in `roost.json` replaces one.
 */
const BUILT_IN_PROFILES: ReadonlyMap<string, AgentProfile> = new Map([
  ["claude", { command: ["claude"], task: "type", protocol: false, reader: "claude" }],
  ["codex", { command: ["codex"], task: "type", protocol: false, reader: "codex" }],
]);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function checkProfile(file: string, name: string, raw: unknown): AgentProfile {
  const key = `agentProfiles.${name}`;
  const bad = (field: string, want: string): never => {
    throw new RoostError("bad_request", `${file}: ${key}${field ? `.${field}` : ""} must be ${want}`);
  };
  if (!isObject(raw)) bad("", "an object");
  const p = raw as Record<string, unknown>;
  const command = p.command;
  const argvOk = Array.isArray(command) && command.length > 0 && command.every((c) => typeof c === "string");
  const stringOk = typeof command === "string" && command.trim() !== "";
  if (!argvOk && !stringOk) bad("command", "a non-empty array of strings or a non-empty string");
  const task = p.task ?? "argv";
  if (task !== "type" && task !== "argv") bad("task", '"type" or "argv"');
  const protocol = p.protocol ?? false;
  if (typeof protocol !== "boolean") bad("protocol", "true or false");
  if (p.cwd !== undefined && (typeof p.cwd !== "string" || p.cwd === "")) bad("cwd", "a folder path");
  if (p.env !== undefined && (!isObject(p.env) || Object.values(p.env).some((v) => typeof v !== "string")))
    bad("env", "an object of strings");
  if (p.reader !== undefined && !isReaderName(p.reader)) bad("reader", `one of ${READER_NAMES.join(", ")}`);
  if (p.resumes !== undefined && typeof p.resumes !== "boolean") bad("resumes", "true or false");
  const resume = p.resume;
  if (
    resume !== undefined &&
    !(Array.isArray(resume) && resume.length > 0 && resume.every((a) => typeof a === "string" && a !== ""))
  )
    bad("resume", "a non-empty array of non-empty strings");
  if (resume !== undefined && !argvOk)
    bad("resume", "given with a command that is an array (not a shell string)");
  if (p.worktree !== undefined && !isWorktreeMode(p.worktree)) bad("worktree", 'true, false or "auto"');
  return {
    command: command as string[] | string,
    task: task as "type" | "argv",
    protocol: protocol as boolean,
    ...(p.cwd !== undefined ? { cwd: p.cwd as string } : {}),
    ...(p.env !== undefined ? { env: p.env as Record<string, string> } : {}),
    ...(p.blockedPatterns !== undefined
      ? { blockedPatterns: checkBlockedPatterns(file, key, p.blockedPatterns) }
      : {}),
    ...(p.reader !== undefined ? { reader: p.reader as string } : {}),
    ...(p.resumes !== undefined ? { resumes: p.resumes as boolean } : {}),
    ...(resume !== undefined ? { resume: resume as string[] } : {}),
    ...(p.worktree !== undefined ? { worktree: p.worktree as boolean | "auto" } : {}),
    ...(p.worktreeSetup !== undefined
      ? { worktreeSetup: checkWorktreeSetup(file, `${key}.worktreeSetup`, p.worktreeSetup) }
      : {}),
  };
}

/** The profiles roost has without any roost.json: the coding agents it knows, and pi. */
function builtInProfiles(): Map<string, AgentProfile> {
  return new Map([...BUILT_IN_PROFILES, [PI_PROFILE, piProfile()]]);
}

/**
 * Reads the profiles from `roost.json`, checked whole: a bad file is a `bad_request` naming the
 * file and the key. A missing file is the built-in profiles alone, which come after the file's own.
 * Read on every use, so an edit applies at once.
 */
export function loadProfiles(file: string): Map<string, AgentProfile> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return builtInProfiles();
    throw new RoostError("bad_request", `${file}: cannot be read (${(err as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new RoostError("bad_request", `${file}: not valid JSON (${(err as Error).message})`);
  }
  if (!isObject(parsed)) throw new RoostError("bad_request", `${file}: must hold a JSON object`);
  const profiles = parsed.agentProfiles ?? {};
  if (!isObject(profiles)) throw new RoostError("bad_request", `${file}: agentProfiles must be an object`);
  // The person's own profiles first (the hub's picker lists them so); a built-in one of the same
  // name is replaced by theirs.
  const out = new Map<string, AgentProfile>();
  for (const [name, raw] of Object.entries(profiles)) out.set(name, checkProfile(file, name, raw));
  for (const [name, profile] of builtInProfiles()) if (!out.has(name)) out.set(name, profile);
  return out;
}
