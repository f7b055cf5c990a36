// The store not knowing a job is no reason to end it: a database brought back from a backup taken
// before the job leaves the job running in the process host and its folder in place, logged and
// named by `roost doctor`; `roost doctor --drop` ends and removes them once the person asks, and
// `roost adopt` makes a job of one.
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { isProcessAlive } from "../src/home/process.js";
import { type Message, startTestDaemon, TEST_PROFILES, type TestDaemon, waitFor } from "./helpers/daemon.js";
import { homeWithJob, strayInHost } from "./helpers/home-with-job.js";
import { rowWhen } from "./helpers/terminal.js";

test("a job the store does not know is left running and its folder kept; doctor names both; --drop ends them", async () => {
  const { daemon, id, pid, dir } = await homeWithJob();
  try {
    // The store as it was before the job: a fresh home's backup, brought back.
    const fresh = await startTestDaemon({ config: { agentProfiles: TEST_PROFILES } });
    await fresh.kill("SIGTERM");
    const [backup] = JSON.parse((await fresh.cli(["restore", "--list", "--json"])).stdout).backups as {
      file: string;
    }[];
    const restored = await daemon.cli(["restore", "--from", backup!.file]);
    assert.equal(restored.code, 0, restored.stderr);
    await fresh.stop();

    await daemon.start();
    const db = join(daemon.stateDir, "roost.db");
    const inode = statSync(db).ino;
    const busy = await daemon.cli(["restore"]);
    assert.equal(busy.code, 1);
    assert.match(busy.stderr, /busy: a roost daemon \(pid \d+\) already runs on .*`roost shutdown` first/);
    assert.equal(statSync(db).ino, inode, "restore changes nothing while a daemon runs");

    const report = JSON.parse((await daemon.cli(["doctor", "--json"])).stdout).findings as {
      check: string;
      status: string;
      found: string;
    }[];
    const log = readFileSync(join(daemon.stateDir, "daemon.log"), "utf8");
    assert.match(
      log,
      new RegExp(
        `the process host's ${id} \\(running, pid ${pid}\\) and the job folders ${id}: unknown to the store, left alone`,
      ),
    );
    assert.ok(isProcessAlive(pid), "the host's job is not killed");
    assert.ok(existsSync(dir), "its folder is not removed");
    const strays = report.find((f) => f.check === "strays")!;
    assert.equal(strays.status, "warn");
    assert.match(strays.found, new RegExp(`${id} \\(running, pid ${pid}\\)`));

    const refused = await daemon.cli(["doctor", "--drop"]);
    assert.match(
      refused.stderr,
      /busy: a roost daemon .* already runs/,
      "dropping waits for the daemon's stop",
    );
    assert.ok(isProcessAlive(pid));
    await daemon.kill("SIGTERM");
    const dropped = await daemon.cli(["doctor", "--drop", "--json"]);
    assert.equal(dropped.code, 0, dropped.stdout + dropped.stderr);
    assert.equal(existsSync(dir), false, "asked, the folder goes");
    await waitFor("asked, the job ends", () => !isProcessAlive(pid));
  } finally {
    await daemon.stop();
  }
});

async function strayFindings(daemon: TestDaemon): Promise<{ status: string; found: string }> {
  const out = await daemon.cli(["doctor", "--json"]);
  const findings = JSON.parse(out.stdout).findings as { check: string; status: string; found: string }[];
  return findings.find((f) => f.check === "strays")!;
}

async function hostPid(daemon: TestDaemon): Promise<number> {
  const out = await daemon.cli(["doctor", "--json"]);
  const host = (JSON.parse(out.stdout).findings as { check: string; found: string }[]).find(
    (f) => f.check === "host",
  )!;
  return Number(/pid (\d+)/.exec(host.found)![1]);
}

test("roost adopt makes a job of what the store does not know: a process of the host a row that takes replies, an ended one or a folder alone an ended row with its last screen", async () => {
  const daemon = await startTestDaemon({ config: { agentProfiles: TEST_PROFILES } });
  let c = await daemon.connect();
  try {
    // A folder alone: its process ended in a host that has ended since.
    const folderOnly = await strayInHost(daemon, ["/bin/sh", "-c", "echo from-before"]);
    await waitFor("it to end", async () =>
      (await strayFindings(daemon)).found.includes(`${folderOnly.id} (ended)`),
    );
    const oldHost = await hostPid(daemon);
    process.kill(oldHost, "SIGKILL");
    await waitFor("a new host", async () => (await hostPid(daemon).catch(() => oldHost)) !== oldHost);
    const ended = await strayInHost(daemon, ["/bin/sh", "-c", "echo ended-before; exit 3"]);
    const live = await strayInHost(daemon, [
      "/bin/sh",
      "-c",
      'n=0; while :; do n=$((n+1)); printf "Reply %s? " "$n"; read -r line; done',
    ]);
    await waitFor("the strays as doctor names them", async () => {
      const { found } = await strayFindings(daemon);
      return (
        found.includes(`${live.id} (running, pid ${live.pid})`) &&
        found.includes(`${ended.id} (ended)`) &&
        !found.includes(`${folderOnly.id} (ended)`)
      );
    });

    const nothing = await c.request("adopt", { id: "feedface" });
    assert.equal(nothing.code, "not_found", JSON.stringify(nothing));
    assert.match(nothing.error, new RegExp(`${live.id} \\(running.*the job folders .*${folderOnly.id}`));

    const adopted = await c.request("adopt", { id: live.id });
    assert.equal(adopted.ok, true, JSON.stringify(adopted));
    assert.deepEqual(adopted.result, { id: live.id, name: "sh", lifecycle: "running" });
    const asking = await rowWhen(c, live.id, (r: Message) => r.question === "Reply 1?");
    assert.equal(asking.pid, live.pid, "the same process, not a new one");
    assert.equal(asking.profile, "adopted");
    const reply = await c.request("reply", { id: live.id, text: "yes", question: "Reply 1?" });
    assert.equal(reply.result?.saved, true, JSON.stringify(reply));
    await rowWhen(c, live.id, (r: Message) => r.question === "Reply 2?");
    const twice = await c.request("adopt", { id: live.id });
    assert.equal(twice.code, "bad_request");
    assert.match(twice.error, /is a job roost knows already/);

    // Ended in the host: its exit is heard as a job's, its last screen kept.
    const done = await c.request("adopt", { id: ended.id });
    assert.deepEqual(done.result, { id: ended.id, name: "sh-2", lifecycle: "failed" });
    const endedRow = await rowWhen(c, ended.id, (r: Message) => r.exitCode === 3);
    assert.equal(endedRow.lifecycle, "failed");

    const folder = await c.request("adopt", { id: folderOnly.id, name: "before" });
    assert.deepEqual(folder.result, { id: folderOnly.id, name: "before", lifecycle: "reaped" });
    for (const [id, text] of [
      [folderOnly.id, "from-before"],
      [ended.id, "ended-before"],
    ] as const) {
      const described = await c.request("describe", { id });
      assert.ok(described.result.lastLines.includes(text), JSON.stringify(described.result.lastLines));
    }
    // What it ran is not known: it cannot be started again, and says so.
    const start = await c.request("reply", { id: folderOnly.id, text: "again", start: true });
    assert.equal(start.ok, false, JSON.stringify(start));
    assert.match(start.error, /what it ran is not known/);

    const events = (await c.request("events", {})).result.events as { text: string }[];
    assert.ok(events.some((e) => e.text === "sh: adopted (running)"));
    assert.deepEqual(await strayFindings(daemon), {
      check: "strays",
      status: "ok",
      found: "every job and folder is the store's",
    });

    // Kept: after a SIGKILL the daemon takes the adopted process up again, as its own.
    c.close();
    await daemon.kill("SIGKILL");
    await daemon.start();
    c = await daemon.connect();
    const rows = (await c.request("list")).result.rows as Message[];
    assert.equal(rows.find((r) => r.id === live.id)?.pid, live.pid);
    assert.equal(rows.find((r) => r.id === live.id)?.lifecycle, "running");
    assert.equal(rows.find((r) => r.id === folderOnly.id)?.name, "before");
    assert.equal(rows.find((r) => r.id === ended.id)?.lifecycle, "failed");
  } finally {
    c.close();
    await daemon.stop();
  }
});
