import { readFileSync } from "node:fs";

/**
 * The scheduler's clock. The daemon runs on the system's; a test sets `ROOST_TEST_CLOCK_FILE` to a
 * file holding an ISO time, which is then the time (read again on every look, so the test moves
 * it by writing the file), and the scheduler looks every 50 ms.
 */
export interface Clock {
  now(): number;
  /** How often the scheduler looks when nothing is due sooner. */
  readonly pollMs: number;
}

const systemClock: Clock = { now: () => Date.now(), pollMs: 60_000 };

function fileClock(file: string): Clock {
  let last = Date.now();
  return {
    pollMs: 50,
    now: () => {
      try {
        const at = Date.parse(readFileSync(file, "utf8").trim());
        if (!Number.isNaN(at)) last = at;
      } catch {
        // Being written: the last time read stands.
      }
      return last;
    },
  };
}

/** The clock the environment asks for. */
export function clockFromEnv(env: NodeJS.ProcessEnv = process.env): Clock {
  const file = env.ROOST_TEST_CLOCK_FILE;
  return file ? fileClock(file) : systemClock;
}
