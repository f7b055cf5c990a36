import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";
import { connectRaw, type RawConnection, runCli, TEST_PROFILES } from "./daemon.js";

/** A row as the CLI suites read it. */
export interface CliRow {
  id: string;
  lifecycle: string;
  pid: number;
  pending: number;
  pinned: boolean;
}

/** A suite's own home for `roost` commands, run as built (`dist/`). */
export interface CliHome {
  /** The home folder; set once the suite's `before` hook has run. */
  readonly home: string;
  roost(...args: string[]): ReturnType<typeof runCli>;
  /** Runs `roost ARGS --json`, asserts it succeeded and returns what it printed. */
  // biome-ignore lint/suspicious/noExplicitAny: whatever the command printed
  json(...args: string[]): Promise<any>;
  /** The rows, read over a raw connection (quicker than another `roost ls`). */
  rows(): Promise<CliRow[]>;
}

/**
 * Registers the suite's hooks: before, a fresh home (named `prefix` + random) whose roost.json has
 * the test profiles; after, `roost shutdown --all` and the home removed.
 */
export function cliHome(prefix: string): CliHome {
  let home = "";
  const roost = (...args: string[]) => runCli(home, args);
  before(() => {
    home = mkdtempSync(join(tmpdir(), prefix));
    writeFileSync(join(home, "roost.json"), JSON.stringify({ agentProfiles: TEST_PROFILES }));
  });
  after(async () => {
    await roost("shutdown", "--all");
    rmSync(home, { recursive: true, force: true });
  });
  return {
    get home() {
      return home;
    },
    roost,
    async json(...args: string[]) {
      const out = await roost(...args, "--json");
      assert.equal(out.code, 0, `roost ${args.join(" ")}: ${out.stderr}`);
      return JSON.parse(out.stdout);
    },
    async rows() {
      const c: RawConnection = await connectRaw(join(home, "roost", "daemon.sock"));
      try {
        return (await c.request("list")).result.rows;
      } finally {
        c.close();
      }
    },
  };
}
