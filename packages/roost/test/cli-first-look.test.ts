// The CLI as a new user meets it: `roost ls` as a table in the hub's words, a stopped job that asks
// nothing, and `roost events --follow` going on across a daemon restart.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { rowsTable } from "../src/cli/format.js";
import {
  CLI,
  type RawConnection,
  runCli,
  startTestDaemon,
  type TestDaemon,
  waitFor,
} from "./helpers/daemon.js";
import { jobRow, NOW } from "./helpers/job-row.js";
import { rowWhen } from "./helpers/terminal.js";

const PROFILES = {
  asker: { command: ["/bin/sh", "-c", "printf 'Proceed? [y/N] '; read answer; sleep 60"] },
  sleeper: { command: ["sleep", "60"], protocol: false },
  crasher: {
    command: ["/bin/sh", "-c", "echo 'execvp(3) failed: No such file or directory'; sleep 0.1; exit 1"],
  },
};

describe("the CLI at first look", () => {
  let daemon: TestDaemon;
  let conn: RawConnection;

  before(async () => {
    daemon = await startTestDaemon({ config: { agentProfiles: PROFILES } });
    conn = await daemon.connect();
  });
  after(async () => {
    conn?.close();
    await daemon?.stop();
  });

  test("ls: a header, aligned columns, the hub's state words; a stopped job shows no question", async () => {
    const asker = (await conn.request("dispatch", { profile: "asker", name: "deploy" })).result.id;
    const sleeper = (await conn.request("dispatch", { profile: "sleeper", name: "a-much-longer-name" }))
      .result.id;
    await rowWhen(conn, asker, (r) => r.state === "blocked");
    await rowWhen(conn, sleeper, (r) => r.lifecycle === "running");
    const listed = await daemon.cli(["ls"]);
    assert.equal(listed.code, 0, listed.stderr);
    const lines = listed.stdout.trimEnd().split("\n");
    assert.match(lines[0]!, /^ID +NAME +STATE +✉ +AGE +SAYS$/);
    const deploy = lines.find((l) => l.startsWith(asker))!;
    assert.match(deploy, /^\w{8} {2}deploy +waiting +\S+ +Proceed\? \[y\/N\] \(1 y, 2 n\)$/);
    assert.match(lines.find((l) => l.startsWith(sleeper))!, /a-much-longer-name +(working|idle) /);
    // Aligned: each column starts where its heading does.
    for (const heading of ["NAME", "STATE", "AGE"]) {
      const at = lines[0]!.indexOf(heading);
      for (const line of lines.slice(1))
        assert.match(line.slice(at - 2, at + 1), /^ {2}\S$/, `${heading}: ${line}`);
    }

    await conn.request("stop", { id: asker });
    await rowWhen(conn, asker, (r) => r.lifecycle === "stopped");
    const stopped = (await daemon.cli(["ls"])).stdout.split("\n").find((l) => l.startsWith(asker))!;
    assert.match(stopped, /deploy +stopped/);
    // Its screen's last line is what it says; it asks nothing, so no choices are offered.
    assert.doesNotMatch(stopped, /\(1 y, 2 n\)/, "a stopped job asks nothing");
  });

  test("events --follow goes on across a daemon restart", async () => {
    await conn.request("dispatch", { profile: "sleeper", name: "before-the-restart" });
    const follow = spawn(process.execPath, [CLI, "events", "--follow"], {
      env: { ...process.env, ROOST_HOME: daemon.home },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    follow.stdout.on("data", (d) => (out += d));
    follow.stderr.on("data", (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => follow.on("close", resolve));
    try {
      await waitFor("the feed so far", async () => (out.includes("job/start") ? true : undefined));
      conn.close();
      await daemon.kill("SIGKILL");
      await waitFor("it says the daemon is gone", async () =>
        err.includes("the daemon is gone; waiting") ? true : undefined,
      );
      await daemon.start();
      conn = await daemon.connect();
      await waitFor("it says the daemon is back", async () =>
        err.includes("the daemon is back") ? true : undefined,
      );
      await conn.request("dispatch", { profile: "sleeper", name: "after-the-restart" });
      await waitFor("an event from the daemon that came back", async () =>
        out.includes("after-the-restart: started") ? true : undefined,
      );
      assert.equal(follow.exitCode, null, "still following");
    } finally {
      follow.kill();
      await exited;
    }
  });

  test("describe: why a job failed, its last output lines and its events; bad arguments refused", async () => {
    const id = (await conn.request("dispatch", { profile: "crasher" })).result.id;
    await rowWhen(conn, id, (r) => r.lifecycle === "failed");
    const shown = await daemon.cli(["describe", id, "--lines", "5"]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, new RegExp(`^crasher \\(${id}\\)\n`));
    assert.match(shown.stdout, /\n error +crashed 3 times in a row \(last: exit code 1\); gave up\n/);
    assert.match(
      shown.stdout,
      /── last output \(\d lines\) ──\n execvp\(3\) failed: No such file or directory\n/,
    );
    assert.match(shown.stdout, /job end crasher: failed: crashed 3 times/);
    const json = JSON.parse((await daemon.cli(["describe", id, "--json"])).stdout);
    assert.deepEqual(json.command, PROFILES.crasher.command);
    assert.equal(json.lastLines.at(-1), "execvp(3) failed: No such file or directory");
    for (const [args, message] of [
      [["describe", id, "--lines", "0"], /bad_request: lines must be an integer from 1 to 200/],
      [["describe", id, "--lines", "201"], /bad_request: lines must be an integer from 1 to 200/],
      [["describe", "nobody"], /not_found: no job "nobody"/],
    ] as const) {
      const refused = await daemon.cli([...args]);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, message);
    }
    assert.equal(
      (await conn.request("describe", { id, lines: 200 })).ok,
      true,
      "200 lines is the most, and allowed",
    );
  });
});

test("ls: AGE is the session's age since it was dispatched, not the time since its last change", () => {
  const row = jobRow("a1b2c3d4", {
    createdAt: new Date(NOW - 3 * 3600_000).toISOString(),
    updatedAt: new Date(NOW - 5_000).toISOString(),
  });
  const [header, line] = rowsTable([row], NOW).split("\n");
  const at = header!.indexOf("AGE");
  assert.equal(line!.slice(at).split(/ +/)[0], "3h");
});

test("an unknown option is named with balanced quotes and the way to pass such a text", async () => {
  const out = await runCli(mkdtempSync(join(tmpdir(), "roost-option-")), ["ls", "--foo"]);
  assert.equal(out.code, 1);
  const first = out.stderr.split("\n")[0]!;
  assert.equal(
    first,
    'roost ls: bad_request: unknown option --foo (a TEXT that starts with "-" goes after --: -- "--foo")',
  );
  assert.equal((first.match(/"/g) ?? []).length % 2, 0);
  assert.equal((first.match(/'/g) ?? []).length % 2, 0);
});
