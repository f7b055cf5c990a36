/**
 * Adoption: a job made of what the store does not know (`strays.ts`), as the person decides. A
 * process the host runs becomes a terminal job read from its screen, taken up as the daemon's start
 * takes up its own; a job folder alone becomes an ended job whose row and `attach` show its last
 * screen. Nothing is started, ended or moved.
 */
import { mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import {
  foldName,
  jobEnvironment,
  type Lifecycle,
  RoostError,
  refuseReservedName,
} from "../../protocol/index.js";
import type { HostJobInfo } from "../host/api.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import { jobFromRecord } from "../jobs/job.js";
import { newRecord } from "../jobs/new-record.js";
import { restartOf } from "../jobs/restart.js";
import { describeStrays, sortStrays } from "../jobs/strays.js";
import type { Supervisor } from "../jobs/supervisor.js";
import { freeName } from "./free-name.js";

/** The profile an adopted job's row names: it was made by no profile of roost.json. */
export const ADOPTED_PROFILE = "adopted";

export interface AdoptArgs {
  id: string;
  name?: string | null;
}

/** The name asked for, checked as a dispatch's is; else the program's, made free. */
function nameFor(state: DaemonState, asked: string | null | undefined, command: string[]): string {
  if (asked !== undefined && asked !== null) {
    refuseReservedName(asked);
    const name = foldName(asked);
    if (name === "") throw new RoostError("bad_request", "name must be a non-empty string");
    return name;
  }
  const program = command[0] === undefined ? "" : foldName(basename(command[0]));
  return freeName(state.jobs, program || ADOPTED_PROFILE);
}

/** Running in the host, it is taken up; ended there, it is as its exit says; a folder alone, reaped. */
function lifecycleOf(info: HostJobInfo | undefined): Lifecycle {
  if (!info) return "reaped";
  if (info.running) return "running";
  return info.exitCode === 0 ? "done" : "failed";
}

export async function adoptStray(
  state: DaemonState,
  supervisor: Supervisor,
  args: AdoptArgs,
): Promise<{ id: string; name: string; lifecycle: Lifecycle }> {
  const known = () => {
    if (state.jobs.has(args.id))
      throw new RoostError("bad_request", `${args.id} is a job roost knows already`);
  };
  known();
  const host = await state.waitForHost();
  const { unknown } = sortStrays(
    await host.list(),
    state.paths.jobsDir,
    state.jobs,
    state.store.removedJobs(),
  );
  // Adopted meanwhile by another request: once only.
  known();
  const info: HostJobInfo | undefined = unknown.hostJobs.find((j) => j.id === args.id);
  if (!info && !unknown.folders.includes(args.id))
    throw new RoostError(
      "not_found",
      `nothing the store does not know is called ${args.id} (${describeStrays(unknown) ?? "there is nothing of the kind"})`,
    );
  const dir = join(state.paths.jobsDir, args.id);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const command = info?.command ?? [];
  const record = newRecord(
    {
      id: args.id,
      name: nameFor(state, args.name, command),
      profile: ADOPTED_PROFILE,
      kind: "terminal",
      cwd: info?.cwd ?? dir,
      task: null,
      command,
      // Its identity, should it be started again; its token and the daemon's environment are given
      // at each start, as to every job.
      env: { TERM: "xterm-256color", ...jobEnvironment({ id: args.id, socket: state.paths.socket, dir }) },
      dir,
      lifecycle: lifecycleOf(info),
      exitCode: info?.exitCode ?? null,
      order: state.jobs.nextOrder(),
    },
    state.now(),
  );
  const job = jobFromRecord(record, [], restartOf(record, undefined));
  state.jobs.set(job.id, job);
  try {
    await state.store.createJob(job.record, undefined, null);
  } catch (err) {
    // Not kept, so not adopted: it stays what it was, unknown to the store.
    if (state.jobs.get(job.id) === job) state.jobs.delete(job.id);
    throw err;
  }
  if (info) await supervisor.takeUpStray(job, info);
  state.changed(job);
  return { id: job.id, name: job.name, lifecycle: job.lifecycle };
}
