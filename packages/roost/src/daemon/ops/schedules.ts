import type { ScheduleId, ScheduleLaunch } from "../../protocol/index.js";
import type { OpHandler } from "./context.js";
import { numberedId } from "./tasks.js";

function scheduleId(args: { id: ScheduleId }): number {
  return numberedId(args.id);
}

/** `launch`: a dispatch's arguments (its request id is the schedule's to make); what is null is left out. */
function keptLaunch(launch: ScheduleLaunch): ScheduleLaunch {
  return Object.fromEntries(
    Object.entries(launch).filter(([, v]) => v !== null && v !== undefined),
  ) as ScheduleLaunch;
}

export const schedules: OpHandler<"schedules"> = ({ schedules: scheduler }) => scheduler.list();

export const scheduleAdd: OpHandler<"schedule-add"> = (
  { dispatcher, schedules: scheduler },
  _caller,
  args,
) => {
  const launch = keptLaunch(args.launch);
  // A schedule of a profile that is not there would fail quietly at each run: refused now.
  dispatcher.profileNamed(launch.profile);
  const schedule = scheduler.add(args.when, launch, args.name ?? undefined, args.overlap ?? false);
  return { schedule };
};

export const scheduleRm: OpHandler<"schedule-rm"> = ({ schedules: scheduler }, _caller, args) => {
  const id = scheduleId(args);
  scheduler.remove(id);
  return { id };
};

export const schedulePause: OpHandler<"schedule-pause"> = ({ schedules: scheduler }, _caller, args) => ({
  schedule: scheduler.setPaused(scheduleId(args), true),
});

export const scheduleResume: OpHandler<"schedule-resume"> = ({ schedules: scheduler }, _caller, args) => ({
  schedule: scheduler.setPaused(scheduleId(args), false),
});

export const scheduleRun: OpHandler<"schedule-run"> = async ({ schedules: scheduler }, _caller, args) => {
  const id = scheduleId(args);
  const job = await scheduler.runNow(id);
  return { schedule: scheduler.shown(scheduler.get(id)), job };
};
