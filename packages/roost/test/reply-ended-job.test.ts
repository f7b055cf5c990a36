// A reply to a terminal job that has failed: it starts the job once, and says what happened.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type RawConnection, startTestDaemon, type TestDaemon } from "./helpers/daemon.js";
import { rowWhen } from "./helpers/terminal.js";

const CRASHER = {
  command: [
    "/bin/sh",
    "-c",
    "echo run >> runs.txt; echo 'execvp(3) failed: No such file or directory'; exit 1",
  ],
};

describe("a reply to a failed terminal job", () => {
  let daemon: TestDaemon;
  let conn: RawConnection;
  let folder: string;

  before(async () => {
    daemon = await startTestDaemon({ config: { agentProfiles: { crasher: CRASHER } } });
    conn = await daemon.connect();
    folder = mkdtempSync(join(tmpdir(), "roost-crasher-"));
  });
  after(async () => {
    conn?.close();
    await daemon?.stop();
  });

  const runs = () => readFileSync(join(folder, "runs.txt"), "utf8").split("\n").filter(Boolean).length;

  test("starts it once, with its crash restarts only, and the refusal says why", async () => {
    const { id } = (await conn.request("dispatch", { profile: "crasher", cwd: folder })).result;
    const failed = await rowWhen(conn, id, (r) => r.lifecycle === "failed");
    assert.match(failed.error, /crashed 3 times in a row/);
    assert.equal(runs(), 3);
    // Through the CLI, whose client tries `busy` again for 5 s: it must not be `busy`.
    const reply = await daemon.cli(["reply", id, "y"]);
    assert.equal(reply.code, 1);
    assert.match(reply.stderr, /roost reply: unsupported: /);
    assert.match(reply.stderr, /was failed; it was started again for this reply but did not come up/);
    assert.match(reply.stderr, /its last line: execvp\(3\) failed: No such file or directory/);
    assert.match(reply.stderr, /the reply was not typed/);
    assert.doesNotMatch(reply.stderr, /busy|try again/);
    await rowWhen(conn, id, (r) => r.lifecycle === "failed");
    // One start for the reply, and at most the two crash restarts the supervisor gives any job.
    assert.ok(runs() <= 6, `ran ${runs()} times`);
    assert.ok(runs() >= 4, `ran ${runs()} times`);
  });
});
