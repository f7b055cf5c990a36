import { type Static, Type } from "typebox";
import { Maybe, NumberedId, Text } from "./fields.js";

export const SCHEDULE_LIMITS = {
  schedules: 100,
  when: 200,
  name: 200,
  /** The shortest `every`. */
  minEveryMinutes: 1,
} as const;

/**
 * Schedules, in the spec's vocabulary: `every 30m`, `daily 18:00`, `weekdays 09:00`, `cron "…"`,
 * read in the daemon's local time zone.
 */
export const ScheduleLaunch = Type.Object(
  {
    profile: Text(),
    task: Maybe(Type.String()),
    cwd: Maybe(Type.String()),
    name: Maybe(Type.String()),
  },
  { description: "a dispatch's arguments: {profile, task?, cwd?, name?}" },
);
export type ScheduleLaunch = Static<typeof ScheduleLaunch>;

export const ScheduleId = NumberedId;
export type ScheduleId = Static<typeof ScheduleId>;

/** `when` in the vocabulary above: the daemon reads it, and refuses it with the reason. */
export const ScheduleAddArgs = Type.Object({
  when: Text({ maxLength: SCHEDULE_LIMITS.when }),
  /** A dispatch's arguments: what each run starts. */
  launch: ScheduleLaunch,
  name: Maybe(Type.String()),
  /** Run even while the previous run's job still runs (default: skip). */
  overlap: Maybe(Type.Boolean()),
});
export type ScheduleAddArgs = Static<typeof ScheduleAddArgs>;

export const ScheduleIdArgs = Type.Object({ id: ScheduleId });

export interface Schedule {
  id: number;
  name: string;
  when: string;
  launch: ScheduleLaunch;
  paused: boolean;
  overlap: boolean;
  createdAt: string;
  /** The next run, local time with its offset (`2026-11-29T18:00:00+01:00`); null while paused. */
  nextAt: string | null;
  /** The daemon's time zone, which `when` is read in. */
  timeZone: string;
  /** The due time of the last run or skip. */
  lastDueAt: string | null;
  lastJob: { id: string; name: string } | null;
  runs: number;
  skips: number;
}

export interface SchedulesResult {
  schedules: Schedule[];
  timeZone: string;
  /** The daemon's clock now, local time with its offset. */
  now: string;
}

export interface ScheduleResult {
  schedule: Schedule;
}

export interface ScheduleRunResult extends ScheduleResult {
  job: { id: string; name: string };
}
