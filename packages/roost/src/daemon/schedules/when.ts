import { Cron } from "croner";
import { RoostError, SCHEDULE_LIMITS } from "../../protocol/index.js";

const VOCABULARY = 'every 30m | daily 18:00 | weekdays 09:00 | cron "…"';

/** When a schedule runs: its due times, in the daemon's local time zone. */
export interface When {
  /** The first due time strictly after `after`, or null when there is none. */
  next(after: number): number | null;
  /** The latest due time at or before `at`, or null. */
  latest(at: number): number | null;
}

function bad(reason: string): never {
  throw new RoostError("bad_request", `when: ${reason} (the forms: ${VOCABULARY})`);
}

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `every 30m`: every so long from the schedule's anchor (when it was made). */
function every(amount: number, unit: keyof typeof UNIT_MS, anchor: number): When {
  const step = amount * UNIT_MS[unit];
  if (step < SCHEDULE_LIMITS.minEveryMinutes * 60_000)
    bad(`every needs at least ${SCHEDULE_LIMITS.minEveryMinutes}m`);
  if (step > 366 * UNIT_MS.d) bad("every is at most 366d");
  return {
    next: (after) => anchor + (Math.floor((after - anchor) / step) + 1) * step,
    latest: (at) => (at < anchor + step ? null : anchor + Math.floor((at - anchor) / step) * step),
  };
}

function cron(pattern: string): When {
  let job: Cron;
  try {
    job = new Cron(pattern, { paused: true });
  } catch (err) {
    bad(`cron "${pattern}": ${(err as Error).message}`);
  }
  return {
    next: (after) => job.nextRun(new Date(after))?.getTime() ?? null,
    // croner's previous runs are strictly before the date it is given: `at` itself counts too.
    latest: (at) => job.previousRuns(1, new Date(at + 1))[0]?.getTime() ?? null,
  };
}

function clockTime(hours: string, minutes: string, form: string): [number, number] {
  const h = Number(hours);
  const m = Number(minutes);
  if (h > 23 || m > 59) bad(`${form} ${hours}:${minutes} is not a time of day (00:00 to 23:59)`);
  return [h, m];
}

/**
 * Reads a schedule's `when` (the spec's vocabulary): `every 30m` (m, h or d), `daily 18:00`,
 * `weekdays 09:00` (Monday to Friday), `cron "m h dom mon dow"`. Anything else is `bad_request`
 * with the reason. `anchor` is where `every` counts from.
 */
export function parseWhen(raw: unknown, anchor: number): When {
  if (typeof raw !== "string" || raw.trim() === "") bad("it must be a non-empty string");
  if (raw.length > SCHEDULE_LIMITS.when) bad(`it is longer than ${SCHEDULE_LIMITS.when} characters`);
  const text = raw.trim();
  let match = /^every\s+(\d{1,6})\s*([mhd])$/i.exec(text);
  if (match) return every(Number(match[1]), match[2]!.toLowerCase() as keyof typeof UNIT_MS, anchor);
  match = /^(daily|weekdays)\s+(\d{1,2}):(\d{2})$/i.exec(text);
  if (match) {
    const form = match[1]!.toLowerCase();
    const [h, m] = clockTime(match[2]!, match[3]!, form);
    return cron(`${m} ${h} * * ${form === "daily" ? "*" : "1-5"}`);
  }
  match = /^cron\s+"([^"]*)"$/i.exec(text);
  if (match) {
    const pattern = match[1]!.trim();
    if (pattern.split(/\s+/).length !== 5)
      bad(`cron "${pattern}" needs five fields: minute hour day month weekday`);
    return cron(pattern);
  }
  if (/^every\b/i.test(text)) bad(`"${text}": every takes an amount and m, h or d, as in every 30m`);
  if (/^(daily|weekdays)\b/i.test(text)) bad(`"${text}": a time of day is HH:MM, as in daily 18:00`);
  if (/^cron\b/i.test(text)) bad(`"${text}": the cron expression goes in double quotes`);
  bad(`"${text}" is not a schedule`);
}
