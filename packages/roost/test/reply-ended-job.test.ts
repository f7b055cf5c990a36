// A reply to a job that has ended: one whose command runs anew is started only when the reply says
// so (`--start`), and then once; one that resumes is started by the reply and says so.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type RawConnection, startTestDaemon, TEST_PROFILES, type TestDaemon } from "./helpers/daemon.js";
import { fixtureLog } from "./helpers/fixture-agents.js";
import { rowWhen } from "./helpers/terminal.js";
import { waitFor } from "./helpers/wait-for.js";

const CRASHER = {
  command: [
    "/bin/sh",
    "-c",
    "echo run >> runs.txt; echo 'execvp(3) failed: No such file or directory'; exit 1",
  ],
};
/** A one-shot terminal job: it runs, says so, and is done. */
const DEPLOY = { command: ["/bin/sh", "-c", "echo run >> runs.txt; echo deployed"] };
/** The fixture protocol agent, never acking, whose work is over once it ends. */
const ONE_RUN = { ...TEST_PROFILES.holder, resumes: false };

describe("a reply to an ended job", () => {
  let daemon: TestDaemon;
  let conn: RawConnection;
  let folder: string;

  before(async () => {
    daemon = await startTestDaemon({
      config: { agentProfiles: { ...TEST_PROFILES, crasher: CRASHER, deploy: DEPLOY, "one-run": ONE_RUN } },
    });
    conn = await daemon.connect();
  });
  after(async () => {
    conn?.close();
    await daemon?.stop();
  });

  const runs = () => readFileSync(join(folder, "runs.txt"), "utf8").split("\n").filter(Boolean).length;

  test("a done one-shot job: refused without --start (nothing runs, nothing kept); with it, it runs once", async () => {
    folder = mkdtempSync(join(tmpdir(), "roost-deploy-"));
    const { id } = (await conn.request("dispatch", { profile: "deploy", name: "deploy", cwd: folder }))
      .result;
    const done = await rowWhen(conn, id, (r) => r.lifecycle === "done");
    assert.equal(done.restart, "reruns");
    assert.equal(runs(), 1);

    const refused = await daemon.cli(["reply", "deploy", "thanks"]);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /^roost reply: ended: deploy is done, and started again it runs its command anew/,
    );
    assert.match(refused.stderr, /--start/);
    assert.match(refused.stderr, /nothing was started/);
    const after = (await conn.request("list", {})).result.rows.find((r: { id: string }) => r.id === id);
    assert.equal(after.lifecycle, "done");
    assert.equal(after.pending, 0);
    assert.equal(after.held, null);
    assert.equal(runs(), 1, "nothing ran");

    const started = await daemon.cli(["reply", "deploy", "thanks", "--start"]);
    assert.equal(started.code, 0, started.stderr);
    assert.match(
      started.stdout,
      /^deploy started again \(its command runs anew\); it ended \(done\) before it asked anything/,
    );
    const again = await rowWhen(conn, id, (r) => r.lifecycle === "done");
    assert.equal(again.pending, 0);
    assert.equal(again.held, null);
    assert.equal(runs(), 2, "it ran once more");
  });

  test("a failed terminal job: refused without --start; with it, started once (with its crash restarts only)", async () => {
    folder = mkdtempSync(join(tmpdir(), "roost-crasher-"));
    const { id } = (await conn.request("dispatch", { profile: "crasher", cwd: folder })).result;
    const failed = await rowWhen(conn, id, (r) => r.lifecycle === "failed");
    assert.match(failed.error, /crashed 3 times in a row/);
    assert.equal(runs(), 3);
    const refused = await daemon.cli(["reply", id, "y"]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /roost reply: ended: .* is failed/);
    assert.equal(runs(), 3);
    // Through the CLI, whose client tries `busy` again for 5 s: it must not be `busy`.
    const reply = await daemon.cli(["reply", id, "y", "--start"]);
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

  test("a protocol agent resumes: the reply starts it without --start, and the answer says so", async () => {
    const { id } = (await conn.request("dispatch", { profile: "agent", task: "done" })).result;
    const done = await rowWhen(conn, id, (r) => r.lifecycle === "done");
    assert.equal(done.restart, "resumes");
    const reply = await daemon.cli(["reply", id, "say:back again"]);
    assert.equal(reply.code, 0, reply.stderr);
    assert.match(reply.stdout, new RegExp(`^${id} resumes; saved reply \\d+`));
    await rowWhen(conn, id, (r) => r.lifecycle === "running" && r.summary === "back again");
  });

  test("a protocol agent whose work is over: refused without --start; replies it never took are not kept", async () => {
    const { id } = (await conn.request("dispatch", { profile: "one-run", task: "done" })).result;
    const done = await rowWhen(conn, id, (r) => r.lifecycle === "done");
    assert.equal(done.restart, "reruns");
    // The task it never acked is not kept waiting for a run that will not come.
    assert.equal(done.pending, 0);
    const refused = await conn.request("reply", { id, text: "done" });
    assert.equal(refused.code, "ended");
    const started = await conn.request("reply", { id, text: "done", start: true });
    assert.equal(started.result.started, "reruns");
    assert.equal(started.result.saved, true);
    // The new run got the reply (and did not ack it either), then ended: nothing is kept.
    await waitFor("the new run's delivery", async () =>
      fixtureLog(daemon, id, "received.jsonl").length === 2 ? true : undefined,
    );
    const ended = await rowWhen(conn, id, (r) => r.lifecycle === "done" && r.pending === 0);
    assert.equal(ended.held, null);
  });
});
