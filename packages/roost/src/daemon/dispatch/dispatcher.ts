import { randomBytes } from "node:crypto";
import { mkdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { AgentProfile } from "../../home/agent-profile.js";
import { loadProfiles } from "../../home/profiles.js";
import {
  type DispatchArgs,
  foldName,
  jobEnvironment,
  type Lifecycle,
  RoostError,
  refuseReservedName,
} from "../../protocol/index.js";
import type { BudgetGate } from "../budgets/budget-gate.js";
import { startConversation } from "../conversations/conversation-start.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import { type Job, jobFromRecord } from "../jobs/job.js";
import { newRecord } from "../jobs/new-record.js";
import { profileArgv } from "../jobs/profile-argv.js";
import { restartOf } from "../jobs/restart.js";
import type { Supervisor } from "../jobs/supervisor.js";
import type { JobRecord } from "../store/store.js";
import { typeTaskAtPrompt } from "../terminal/terminal-replies.js";
import type { TerminalRows } from "../terminal/terminal-rows.js";
import type { PreparedWorktree, Worktrees } from "../worktrees/worktrees.js";
import { type AdoptArgs, adoptStray } from "./adoption.js";
import { freeName } from "./free-name.js";

function newJobId(state: DaemonState): string {
  for (;;) {
    const id = randomBytes(4).toString("hex");
    if (!state.jobs.has(id)) return id;
  }
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

/**
 * Makes jobs and starts them: the user's `dispatch`, a schedule's runs and a session's `spawn` all
 * go through it.
 */
export class Dispatcher {
  constructor(
    private readonly state: DaemonState,
    private readonly supervisor: Supervisor,
    private readonly terminalRows: TerminalRows,
    private readonly worktrees: Worktrees,
    private readonly budgets: BudgetGate,
  ) {}

  /** Makes a job of a process or a folder the store does not know (`adoption.ts`). */
  adopt(args: AdoptArgs): ReturnType<typeof adoptStray> {
    return adoptStray(this.state, this.supervisor, args);
  }

  /** The names of roost.json's profiles, read now. */
  profileNames(): string[] {
    return [...loadProfiles(this.state.paths.config).keys()];
  }

  /** The profile of that name in roost.json, read now; `not_found` names the ones there are. */
  profileNamed(profileName: string): AgentProfile {
    const { state } = this;
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

  /**
   * Makes a job and starts it. `extend` adds to its record before it is kept and started (a spawned
   * child's tree links and environment). A request id is taken once: a resend gets the job the first
   * made, and one that comes while the first is still under way waits for the first's answer.
   */
  async dispatch(
    args: DispatchArgs,
    extend?: (record: JobRecord) => void,
  ): Promise<{ id: string; name: string }> {
    const { state } = this;
    const requestId = args.requestId ?? undefined;
    if (requestId === undefined) return this.makeJob(args, undefined, extend);
    const first = state.jobs.get(state.store.findDispatchRequest(requestId) ?? "");
    // A resend: the job the first one made, whatever the resend's other arguments.
    if (first) return { id: first.id, name: first.name };
    const key = `dispatch:${requestId}`;
    return (
      state.requestsInFlight.get<{ id: string; name: string }>(key) ??
      state.requestsInFlight.run(key, () => this.makeJob(args, requestId, extend))
    );
  }

  private async makeJob(
    args: DispatchArgs,
    requestId: string | undefined,
    extend?: (record: JobRecord) => void,
  ): Promise<{ id: string; name: string }> {
    const { state, supervisor } = this;
    const profileName = args.profile;
    const task = args.task ?? null;
    const profile = this.profileNamed(profileName);
    this.budgets.refuseNewSession(profileName);
    const cwd = checkFolder(args.cwd ?? profile.cwd ?? homedir());
    const requestedName = args.name ?? undefined;
    if (requestedName !== undefined) refuseReservedName(requestedName);
    // Awaited only while there is no host: from a spawn's checks to the job's being known, no await.
    if (!state.host) await state.waitForHost();
    state.requireHost();
    // From here to the job's being known there is no await: names and ids are taken as they stand.
    let name = (requestedName !== undefined && foldName(requestedName)) || freeName(state.jobs, profileName);
    // Without a worktree there is no await here either (a spawn's caps hold to the job's being known).
    const mode = this.worktrees.modeFor(args, profile);
    const prepared = mode === false ? null : await this.worktrees.prepare(mode, args, profile, cwd, name);
    // A name taken while the worktree was made is made free again.
    if (prepared && requestedName === undefined) name = freeName(state.jobs, profileName);

    const id = newJobId(state);
    const dir = join(state.paths.jobsDir, id);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const typed = profile.task === "type" && task !== null && task !== "" ? task : null;
    const record = newRecord(
      {
        id,
        name,
        profile: profileName,
        kind: profile.protocol ? "protocol" : "terminal",
        cwd: prepared?.cwd ?? cwd,
        task,
        command: profileArgv(profile, task),
        env: {
          // The daemon's own environment is added at each start (see `spawnEnvironment`), not kept.
          TERM: "xterm-256color",
          ...profile.env,
          ...jobEnvironment({ id, socket: state.paths.socket, dir }),
        },
        dir,
        lifecycle: "starting",
        order: state.jobs.nextOrder(),
        // `task: "type"` makes the task reply 1.
        nextSeq: typed !== null ? 2 : 1,
        ...(prepared ? { worktree: prepared.worktree } : {}),
      },
      state.now(),
    );
    startConversation(record, profile);
    extend?.(record);
    // A terminal agent's task is typed once it runs; a protocol agent takes it as a pending reply.
    const queued = typed !== null && profile.protocol;
    const job = jobFromRecord(
      record,
      queued ? [{ jobId: id, seq: 1, text: typed, mode: null }] : [],
      restartOf(record, profile),
    );
    // Known at once (a resend meanwhile finds it); started once its row is committed.
    state.jobs.set(id, job);
    try {
      await state.store.createJob(job.record, requestId, queued ? typed : null);
    } catch (err) {
      // Not kept, so not made: a resend makes it anew.
      if (state.jobs.get(id) === job) state.jobs.delete(id);
      if (prepared) await this.worktrees.discard(prepared.worktree);
      throw err;
    }
    if (prepared) {
      this.worktrees.track(job, prepared.setup === null);
      if (prepared.setup) {
        // Answered now, started once set up: a setup (`npm ci`) may take minutes.
        void this.setUpThenStart(job, prepared, typed);
        return { id, name };
      }
    }
    await supervisor.start(job);
    // Typed once the program shows its prompt (a TUI may drop keys sent before, or take them as a dialog's answer).
    if (typed !== null && !profile.protocol && job.lifecycle === "running")
      typeTaskAtPrompt(state, this.terminalRows, job, typed);
    return { id, name };
  }

  /** Runs the worktree's setup, then starts the job; a failed setup fails the row with its last lines. */
  private async setUpThenStart(job: Job, prepared: PreparedWorktree, typed: string | null): Promise<void> {
    const { state } = this;
    try {
      await this.worktrees.setup(job, prepared);
    } catch (err) {
      if (state.jobs.get(job.id) !== job) return;
      job.lifecycle = "failed";
      job.error = (err as Error).message;
      await state.save(job).catch(() => {});
      return;
    }
    // Removed or stopped while it was set up: not started.
    if (state.jobs.get(job.id) !== job || job.lifecycle !== "starting") return;
    await this.supervisor.start(job);
    if (typed !== null && job.kind === "terminal" && (job.lifecycle as Lifecycle) === "running")
      typeTaskAtPrompt(state, this.terminalRows, job, typed);
  }
}
