import { RoostError, type ScheduleLaunch } from "../../protocol/index.js";
import { optionalBoolean, optionalString, requiredString } from "./args.js";
import type { OpHandler } from "./context.js";
import { profileNamed } from "./jobs.js";
import { readTaskId } from "./tasks.js";

function readScheduleId(args: Record<string, unknown>): number {
  return readTaskId(args.id);
}

/** `launch`: a dispatch's arguments (its request id is the schedule's to make). */
function readLaunch(args: Record<string, unknown>): ScheduleLaunch {
  const raw = args.launch;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new RoostError(
      "bad_request",
      "launch must be a dispatch's arguments: {profile, task?, cwd?, name?}",
    );
  const launch = raw as Record<string, unknown>;
  const out: ScheduleLaunch = { profile: requiredString(launch, "profile") };
  for (const field of ["task", "cwd", "name"] as const) {
    const value = optionalString(launch, field);
    if (value !== undefined) out[field] = value;
  }
  return out;
}

export const schedules: OpHandler = ({ schedules: scheduler }) => scheduler.list();

export const scheduleAdd: OpHandler = ({ state, schedules: scheduler }, _caller, args) => {
  const launch = readLaunch(args);
  // A schedule of a profile that is not there would fail quietly at each run: refused now.
  profileNamed(state, launch.profile);
  const schedule = scheduler.add(
    args.when,
    launch,
    optionalString(args, "name"),
    optionalBoolean(args, "overlap") ?? false,
  );
  return { schedule };
};

export const scheduleRm: OpHandler = ({ schedules: scheduler }, _caller, args) => {
  const id = readScheduleId(args);
  scheduler.remove(id);
  return { id };
};

export const schedulePause: OpHandler = ({ schedules: scheduler }, _caller, args) => ({
  schedule: scheduler.setPaused(readScheduleId(args), true),
});

export const scheduleResume: OpHandler = ({ schedules: scheduler }, _caller, args) => ({
  schedule: scheduler.setPaused(readScheduleId(args), false),
});

export const scheduleRun: OpHandler = async ({ schedules: scheduler }, _caller, args) => {
  const id = readScheduleId(args);
  const job = await scheduler.runNow(id);
  return { schedule: scheduler.shown(scheduler.get(id)), job };
};
