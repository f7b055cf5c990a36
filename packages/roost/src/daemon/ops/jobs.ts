import { randomBytes } from "node:crypto";
import { mkdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { foldName, jobEnvironment, LIMITS, RoostError } from "../../protocol/index.js";
import { type AgentProfile, loadProfiles, profileArgv } from "../config.js";
import { type Job, jobFromRecord } from "../job.js";
import { removeJobFolder } from "../job-folders.js";
import type { DaemonState } from "../state.js";
import type { JobRecord } from "../store.js";
import { typeTaskAtPrompt } from "../terminal/terminal-replies.js";
import { optionalRequestId, optionalString, requiredString } from "./args.js";
import type { OpContext, OpHandler } from "./context.js";

function newJobId(state: DaemonState): string {
  for (;;) {
    const id = randomBytes(4).toString("hex");
    if (!state.jobs.has(id)) return id;
  }
}

/** The profile's name, or with `-2`, `-3`, ... when a job has it already: names stay handy. */
function freeName(state: DaemonState, base: string): string {
  const taken = new Set([...state.jobs.values()].map((j) => j.name));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

function checkFolder(cwd: string): string {
  const path = resolve(cwd);
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new RoostError("bad_request", `cwd ${path} is not a folder`);
  return path;
}

function inheritedEnvironment(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) out[k] = v;
  return out;
}

/** The profile of that name in roost.json, read now; `not_found` names the ones there are. */
export function profileNamed(state: DaemonState, profileName: string): AgentProfile {
  const profiles = loadProfiles(state.paths.config);
  const profile = profiles.get(profileName);
  if (!profile)
    throw new RoostError(
      "not_found",
      `no profile ${JSON.stringify(profileName)} in ${state.paths.config}` +
        (profiles.size ? ` (profiles: ${[...profiles.keys()].join(", ")})` : " (it has no agentProfiles)"),
    );
  return profile;
}

export const dispatch: OpHandler = (ctx, _caller, args) => dispatchJob(ctx, args);

/**
 * Makes a job and starts it. `extend` adds to its record before it is kept and started (a spawned
 * child's tree links and environment).
 */
export async function dispatchJob(
  { state, supervisor }: Pick<OpContext, "state" | "supervisor">,
  args: Record<string, unknown>,
  extend?: (record: JobRecord) => void,
): Promise<{ id: string; name: string }> {
  const profileName = requiredString(args, "profile");
  const task = optionalString(args, "task") ?? null;
  if (task !== null && task.length > LIMITS.replyText)
    throw new RoostError("bad_request", `task is longer than ${LIMITS.replyText} characters`);
  const requestId = optionalRequestId(args);
  if (requestId !== undefined) {
    const first = state.jobs.get(state.store.findDispatchRequest(requestId) ?? "");
    // A resend: the job the first one made, whatever the resend's other arguments.
    if (first) return { id: first.id, name: first.name };
  }
  const profile = profileNamed(state, profileName);
  const cwd = checkFolder(optionalString(args, "cwd") ?? profile.cwd ?? homedir());
  const requestedName = optionalString(args, "name");
  const name = (requestedName !== undefined && foldName(requestedName)) || freeName(state, profileName);
  await state.waitForHost();

  const id = newJobId(state);
  const token = randomBytes(24).toString("base64url");
  const dir = join(state.paths.jobsDir, id);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const typed = profile.task === "type" && task !== null && task !== "" ? task : null;
  const now = state.now();
  const record: JobRecord = {
    id,
    name,
    profile: profileName,
    kind: profile.protocol ? "protocol" : "terminal",
    cwd,
    task,
    command: profileArgv(profile, task),
    env: {
      ...inheritedEnvironment(),
      TERM: "xterm-256color",
      ...profile.env,
      ...jobEnvironment({ id, token, socket: state.paths.socket, dir }),
    },
    token,
    dir,
    lifecycle: "starting",
    report: null,
    reportedName: null,
    screenSummary: null,
    pid: null,
    exitCode: null,
    pinned: false,
    order: Math.max(0, ...[...state.jobs.values()].map((j) => j.order + 1)),
    capabilities: [],
    agent: null,
    restarts: 0,
    error: null,
    // `task: "type"` makes the task reply 1.
    nextSeq: typed !== null ? 2 : 1,
    createdAt: now,
    updatedAt: now,
  };
  extend?.(record);
  // A terminal agent's task is typed once it runs; a protocol agent takes it as a pending reply.
  const queued = typed !== null && profile.protocol;
  const job = jobFromRecord(record, queued ? [{ jobId: id, seq: 1, text: typed, mode: null }] : []);
  // Known at once (a resend meanwhile finds it); started once its row is committed.
  state.jobs.set(id, job);
  await state.store.createJob(record, requestId, queued ? typed : null);
  await supervisor.start(job);
  // Typed once the program shows its prompt (a TUI may drop keys sent before, or take them as a dialog's answer).
  if (typed !== null && !profile.protocol && job.lifecycle === "running") typeTaskAtPrompt(state, job, typed);
  return { id, name };
}

export const stop: OpHandler = async ({ state, supervisor }, _caller, args) => {
  const job = state.resolve(args.id);
  await state.waitForHost();
  await supervisor.stop(job);
  return { id: job.id };
};

export const respawn: OpHandler = async ({ state, supervisor }, _caller, args) => {
  const job = state.resolve(args.id);
  await state.waitForHost();
  await supervisor.respawn(job);
  return { id: job.id };
};

export const rm: OpHandler = async ({ state, supervisor }, _caller, args) => {
  const job: Job = state.resolve(args.id);
  // Out of the table first: its exit, screens and replies from now on find no job to act for.
  state.jobs.delete(job.id);
  state.store.deleteJob(job.id);
  state.removed(job.id);
  // The folder goes only once the host has let go of the job: its log is closed, its process reaped.
  await supervisor.remove(job);
  removeJobFolder(job.dir);
  return { id: job.id };
};
