// The database locked by another process, and a full disk: a write that cannot be made is refused
// with a clear error (nothing is answered `saved` that is not), the daemon serves on, and it takes
// writes again once the cause is gone.
import assert from "node:assert/strict";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { startTestDaemon } from "./helpers/daemon.js";
import { FAULT_PROFILES, fill, smallDisk } from "./helpers/faults.js";

test("a database locked by another process: a reply is refused with a clear error, then taken once the lock goes", async () => {
  const daemon = await startTestDaemon({ config: { agentProfiles: FAULT_PROFILES } });
  const c = await daemon.connect();
  try {
    const { id } = (await c.request("dispatch", { profile: "mute" })).result;
    const other = new Database(join(daemon.stateDir, "roost.db"));
    other.exec("BEGIN EXCLUSIVE");
    try {
      const refused = await c.request("reply", { id, text: "while locked", requestId: "locked-1" });
      assert.equal(refused.ok, false);
      assert.match(refused.error, /could not write: database is locked/);
      assert.equal((await c.request("stats")).ok, true, "the daemon serves on");
      // Once a write has waited out the busy timeout, the next ones are refused at once while the lock
      // holds, not each after the whole timeout again (five in a row would take 25 s): every one of
      // these is answered within the client's time limit.
      const together = await Promise.all(
        [1, 2, 3, 4, 5].map((n) =>
          c.request("reply", { id, text: `together ${n}`, requestId: `together-${n}` }),
        ),
      );
      for (const answer of together) assert.match(answer.error, /could not write: database is locked/);
    } finally {
      other.exec("COMMIT");
      other.close();
    }
    // Not taken, so the same request id is taken anew, once.
    const taken = await c.request("reply", { id, text: "while locked", requestId: "locked-1" });
    assert.equal(taken.ok, true, taken.error);
    assert.equal(taken.result.duplicate, undefined);
    assert.equal((await c.request("list")).result.rows.find((r: { id: string }) => r.id === id).pending, 1);
  } finally {
    c.close();
    await daemon.stop();
  }
});

test("a full disk: replies are refused with a clear error, none answered saved is lost, and they are taken again once there is room", async (t) => {
  const disk = smallDisk();
  if (typeof disk === "string") {
    // Mounting a small tmpfs needs root (CI runs as root); elsewhere the test says why it did not run.
    t.skip(disk);
    return;
  }
  const home = join(disk.path, "home");
  mkdirSync(home);
  const daemon = await startTestDaemon({ home, config: { agentProfiles: FAULT_PROFILES } });
  const c = await daemon.connect();
  try {
    const { id } = (await c.request("dispatch", { profile: "mute" })).result;
    const filler = join(disk.path, "filler");
    fill(filler);
    let saved = 0;
    let refused: { code: string; error: string } | undefined;
    for (let i = 0; i < 40 && !refused; i++) {
      const answer = await c.request("reply", { id, text: `${i} ${"x".repeat(90_000)}` });
      if (answer.ok) saved++;
      else refused = answer as unknown as { code: string; error: string };
    }
    assert.ok(refused, "a reply was refused once the disk was full");
    assert.match(refused.error, /could not write: .*(full|disk)/i);
    assert.equal((await c.request("stats")).ok, true, "the daemon serves on");
    rmSync(filler);
    const taken = await c.request("reply", { id, text: "after" });
    assert.equal(taken.ok, true, taken.error);
    assert.equal(
      (await c.request("list")).result.rows.find((r: { id: string }) => r.id === id).pending,
      saved + 1,
      "every reply answered saved is kept",
    );
  } finally {
    c.close();
    await daemon.stop();
    disk.unmount();
  }
});
