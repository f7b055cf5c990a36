/**
 * What the supervisor is doing with a job's process, as a state machine: named states, the events
 * that move them, and what an exit or a start's answer makes of the job. Pure: the supervisor feeds
 * it what happened and does what it says (the way ws's receiver or tmux's job.c keep one state per
 * job rather than flags beside each other). The job's lifecycle (what its row says) stays the job's
 * record; this is what the daemon means to do with the process while it runs.
 */
import type { Lifecycle } from "../../protocol/index.js";

/**
 * - `idle`: nothing under way; the lifecycle says where the job stands.
 * - `spawning`: a start is under way, its answer from the host not yet taken up.
 * - `overtaken`: the process's exit came before its start's answer: that answer is stale.
 * - `stopping`: ended on purpose (stop): its exit makes it `stopped`.
 * - `respawning`: ended to start again (respawn): its exit starts it.
 */
export const RUN_STATES = ["idle", "spawning", "overtaken", "stopping", "respawning"] as const;
export type RunState = (typeof RUN_STATES)[number];

/**
 * - `start`: a start begins (asked, a restart after a crash, a wake).
 * - `settled`: the start is over (its answer taken up, or it failed).
 * - `exit`: the host reported the process's exit.
 * - `stop`: the process is ended to stop the job.
 * - `respawn`: the process is ended to start the job again.
 */
export const RUN_EVENTS = ["start", "settled", "exit", "stop", "respawn"] as const;
export type RunEvent = (typeof RUN_EVENTS)[number];

/** Each state's transitions; an event a state does not list leaves it as it is. */
export const RUN_TRANSITIONS: Record<RunState, Partial<Record<RunEvent, RunState>>> = {
  idle: { start: "spawning", stop: "stopping", respawn: "respawning" },
  spawning: {
    start: "spawning",
    settled: "idle",
    exit: "overtaken",
    stop: "stopping",
    respawn: "respawning",
  },
  overtaken: { start: "spawning", settled: "idle", stop: "stopping", respawn: "respawning" },
  stopping: { start: "spawning", exit: "idle", respawn: "respawning" },
  respawning: { start: "spawning", exit: "idle", stop: "stopping" },
};

export function nextRun(state: RunState, event: RunEvent): RunState {
  return RUN_TRANSITIONS[state][event] ?? state;
}

/** Crashes in a row before a job is given up (`failed`). */
export const MAX_CRASHES_IN_A_ROW = 3;
/** The first restart waits this long; each next one twice as long. */
export const RESTART_BACKOFF_MS = 250;
/** A run this long clears the crash count: the job was working. */
export const STABLE_RUN_MS = 30_000;

/** What an exit comes upon. */
export interface ExitSeen {
  run: RunState;
  lifecycle: Lifecycle;
  /** What the agent last reported of itself (`done`, `failed`, or anything else). */
  reported: string | undefined;
  exitCode: number | null;
  signal: number | null;
  ranMs: number;
  crashStreak: number;
}

/** What an exit makes of the job. */
export type ExitOutcome =
  /** An ended job's late exit: nothing to do. */
  | { to: "ignored" }
  | { to: "stopped" }
  | { to: "respawn" }
  | { to: "done" }
  | { to: "failed"; crashStreak?: number; gaveUp?: string }
  | { to: "restart"; crashStreak: number; delayMs: number };

function describeExit(code: number | null, signal: number | null): string {
  return signal !== null && signal !== 0 ? `signal ${signal}` : `exit code ${code}`;
}

export function exitOutcome(seen: ExitSeen): ExitOutcome {
  const live = seen.lifecycle === "starting" || seen.lifecycle === "running";
  if (!live && seen.run !== "stopping") return { to: "ignored" };
  if (seen.run === "stopping") return { to: "stopped" };
  if (seen.run === "respawning") return { to: "respawn" };
  if (seen.reported === "done") return { to: "done" };
  if (seen.reported === "failed") return { to: "failed" };
  if (seen.exitCode === 0 && (seen.signal === null || seen.signal === 0)) return { to: "done" };
  const crashStreak = seen.ranMs >= STABLE_RUN_MS ? 1 : seen.crashStreak + 1;
  if (crashStreak >= MAX_CRASHES_IN_A_ROW)
    return {
      to: "failed",
      crashStreak,
      gaveUp: `crashed ${crashStreak} times in a row (last: ${describeExit(seen.exitCode, seen.signal)}); gave up`,
    };
  return { to: "restart", crashStreak, delayMs: RESTART_BACKOFF_MS * 2 ** (crashStreak - 1) };
}

/**
 * What a start's answer makes of the job: `stale` (its exit is recorded already), `stop` (stopped
 * while it was being started: what started is ended), `running`, or `exited` (it had ended already).
 */
export type SpawnOutcome = "stale" | "stop" | "running" | "exited";

export function spawnOutcome(run: RunState, lifecycle: Lifecycle, running: boolean): SpawnOutcome {
  if (run === "overtaken") return "stale";
  if (lifecycle === "stopped") return "stop";
  return running ? "running" : "exited";
}
