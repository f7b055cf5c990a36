import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A clock file for the daemon (`ROOST_TEST_CLOCK_FILE`, set in this process's environment so that
 * every daemon the test starts, and starts again, reads it): the test moves time by writing it.
 */
export function testClock(start = "2026-11-29T10:00:00Z") {
  const dir = mkdtempSync(join(tmpdir(), "roost-clock-"));
  const file = join(dir, "now");
  let now = Date.parse(start);
  const write = () => writeFileSync(file, new Date(now).toISOString());
  write();
  process.env.ROOST_TEST_CLOCK_FILE = file;
  return {
    /** Moves the daemon's time on. */
    advance(ms: number): void {
      now += ms;
      write();
    },
    remove(): void {
      delete process.env.ROOST_TEST_CLOCK_FILE;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
