/**
 * A schedule's `when`, read as a pure function: its due times in the local time zone (the expected
 * times are built with local `Date`s, so the tests hold in any zone), and each refusal's reason.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseWhen } from "../src/daemon/schedules/when.js";
import { RoostError, SCHEDULE_LIMITS } from "../src/protocol/index.js";

const MINUTE = 60_000;
/** A local time: month from 1, as a person writes it. */
const local = (y: number, month: number, d: number, h = 0, m = 0) =>
  new Date(y, month - 1, d, h, m).getTime();

function refusal(raw: unknown): string {
  try {
    parseWhen(raw, 0);
  } catch (err) {
    assert.ok(err instanceof RoostError && err.code === "bad_request", String(err));
    return err.message;
  }
  assert.fail(`${JSON.stringify(raw)} was taken`);
}

test("every counts from its anchor: the next due time strictly after, the latest at or before", () => {
  const anchor = local(2026, 11, 30, 10, 0);
  const when = parseWhen("every 30m", anchor);
  assert.equal(when.next(anchor), anchor + 30 * MINUTE, "the anchor itself is not due");
  assert.equal(when.next(anchor + 29 * MINUTE), anchor + 30 * MINUTE);
  assert.equal(when.next(anchor + 30 * MINUTE), anchor + 60 * MINUTE, "strictly after");
  assert.equal(when.latest(anchor + 29 * MINUTE), null, "nothing was due yet");
  assert.equal(when.latest(anchor + 30 * MINUTE), anchor + 30 * MINUTE, "at counts");
  assert.equal(when.latest(anchor + 95 * MINUTE), anchor + 90 * MINUTE);
  assert.equal(parseWhen("every 2h", anchor).next(anchor), anchor + 120 * MINUTE);
  assert.equal(parseWhen("EVERY 1 d", anchor).next(anchor), anchor + 24 * 60 * MINUTE, "any case, a space");
});

test("every's edges: 1m and 366d are taken, 0m and 367d are not", () => {
  assert.equal(SCHEDULE_LIMITS.minEveryMinutes, 1);
  assert.equal(parseWhen("every 1m", 0).next(0), MINUTE);
  assert.equal(parseWhen("every 366d", 0).next(0), 366 * 24 * 60 * MINUTE);
  assert.match(refusal("every 0m"), /^when: every needs at least 1m \(the forms: /);
  assert.match(refusal("every 367d"), /^when: every is at most 366d/);
  assert.match(refusal("every 5x"), /"every 5x": every takes an amount and m, h or d/);
});

test("daily and weekdays are local times of day; weekdays skips Saturday and Sunday", () => {
  // 2026-11-27 is a Friday.
  const daily = parseWhen("daily 18:00", 0);
  assert.equal(daily.next(local(2026, 11, 27, 17, 59)), local(2026, 11, 27, 18, 0));
  assert.equal(daily.next(local(2026, 11, 27, 18, 0)), local(2026, 11, 28, 18, 0), "strictly after");
  assert.equal(daily.latest(local(2026, 11, 27, 18, 0)), local(2026, 11, 27, 18, 0));
  const weekdays = parseWhen("weekdays 09:00", 0);
  assert.equal(weekdays.next(local(2026, 11, 27, 10, 0)), local(2026, 11, 30, 9, 0), "Friday → Monday");
  assert.equal(weekdays.latest(local(2026, 11, 29, 12, 0)), local(2026, 11, 27, 9, 0), "Sunday ← Friday");
  assert.equal(parseWhen("daily 0:05", 0).next(local(2026, 11, 27, 0, 0)), local(2026, 11, 27, 0, 5));
});

test("a time of day is 00:00 to 23:59 in HH:MM", () => {
  assert.equal(parseWhen("daily 23:59", 0).next(local(2026, 11, 27, 23, 0)), local(2026, 11, 27, 23, 59));
  assert.match(refusal("daily 24:00"), /daily 24:00 is not a time of day \(00:00 to 23:59\)/);
  assert.match(refusal("weekdays 09:60"), /weekdays 09:60 is not a time of day/);
  assert.match(refusal("daily 6pm"), /"daily 6pm": a time of day is HH:MM/);
});

test("cron takes five fields in double quotes, read by croner", () => {
  const hourly = parseWhen('cron "15 * * * *"', 0);
  assert.equal(hourly.next(local(2026, 11, 27, 10, 20)), local(2026, 11, 27, 11, 15));
  assert.match(refusal('cron "* * *"'), /cron "\* \* \*" needs five fields: minute hour day month weekday/);
  assert.match(refusal("cron 15 * * * *"), /the cron expression goes in double quotes/);
  assert.match(refusal('cron "99 * * * *"'), /^when: cron "99 \* \* \* \*": /);
});

test("anything else is refused with the forms; the length limit is at its edge", () => {
  assert.match(
    refusal("tomorrow"),
    /^when: "tomorrow" is not a schedule \(the forms: every 30m \| daily 18:00/,
  );
  assert.match(refusal(""), /it must be a non-empty string/);
  assert.match(refusal(42), /it must be a non-empty string/);
  const padded = `every 30m${" ".repeat(SCHEDULE_LIMITS.when - "every 30m".length)}`;
  assert.equal(padded.length, SCHEDULE_LIMITS.when);
  assert.equal(parseWhen(padded, 0).next(0), 30 * MINUTE, "at the limit: taken");
  assert.match(refusal(`${padded} `), new RegExp(`longer than ${SCHEDULE_LIMITS.when} characters`));
});
