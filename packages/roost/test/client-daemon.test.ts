import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { DaemonClient } from "../src/client/daemon-client.js";
import { statePaths } from "../src/home/paths.js";
import { isProcessAlive } from "../src/home/process.js";
import { RoostError } from "../src/protocol/errors.js";
import type { EventMessage } from "../src/protocol/messages.js";
import type { JobRow } from "../src/protocol/rows.js";
import { ScriptedDaemon } from "./fixtures/client-fake-daemon.js";
import { startTestDaemon, type TestDaemon, waitFor } from "./helpers/daemon.js";

const SLEEPER = { command: ["sleep", "600"], task: "argv", protocol: false };

let daemon: TestDaemon;
before(async () => {
  daemon = await startTestDaemon({ config: { agentProfiles: { sleeper: SLEEPER } } });
});

after(() => daemon?.stop());

const isCode = (code: string) => (e: unknown) => e instanceof RoostError && e.code === code;

test("without a daemon, connect refuses with disconnected unless asked to start one", async () => {
  const home = mkdtempSync(join(tmpdir(), "roost-client-none-"));
  try {
    await assert.rejects(DaemonClient.connect({ home }), isCode("disconnected"));
    await assert.rejects(
      DaemonClient.connect({ socketPath: join(home, "nothing.sock") }),
      isCode("disconnected"),
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test("connect starts the daemon in the background when asked and none runs", async () => {
  const home = mkdtempSync(join(tmpdir(), "roost-client-start-"));
  writeFileSync(join(home, "roost.json"), JSON.stringify({ agentProfiles: { sleeper: SLEEPER } }));
  const paths = statePaths(home);
  try {
    // This process runs the client from the source, so the daemon it starts runs through tsx,
    // compiling the daemon's modules on a first start: on a loaded machine that outlasts the 15 s a
    // built command waits.
    const client = await DaemonClient.connect({ home, start: true, startTimeoutMs: 60_000 });
    assert.deepEqual(await client.call("list", {}), { rows: [] });
    const pid = Number(readFileSync(paths.pidFile, "utf8").trim());
    assert.ok(pid > 0 && pid !== process.pid);
    // A second client finds the running daemon and does not start another.
    const second = await DaemonClient.connect({ home, start: true, startTimeoutMs: 60_000 });
    assert.equal(Number(readFileSync(paths.pidFile, "utf8").trim()), pid);
    second.close();
    // A job makes sure the daemon has its process host, so that shutdown --all ends both.
    const { id } = await client.call("dispatch", { profile: "sleeper" });
    const row = await waitFor("the job's process", async () => {
      const found = (await client.call("list", {})).rows.find((r) => r.id === id);
      return found?.pid ? found : undefined;
    });
    await client.call("shutdown", { all: true });
    client.close();
    for (const gone of [pid, row.pid!]) {
      await waitFor(`process ${gone} to exit`, async () => (isProcessAlive(gone) ? undefined : true));
    }
    assert.equal(existsSync(paths.socket), false);
  } finally {
    // Whatever happened above, nothing started here outlives the test.
    await DaemonClient.connect({ home, busyRetryMs: 15_000 })
      .then(async (c) => {
        await c.call("shutdown", { all: true }).catch(() => {});
        c.close();
      })
      .catch(() => {});
    if (existsSync(paths.pidFile)) {
      const pid = Number(readFileSync(paths.pidFile, "utf8").trim());
      if (pid > 0 && isProcessAlive(pid)) process.kill(pid, "SIGKILL");
    }
    rmSync(home, { recursive: true, force: true });
  }
});

test("typed calls answer with results; a refusal is a RoostError carrying the daemon's code", async () => {
  const client = await DaemonClient.connect({ home: daemon.home });
  try {
    await assert.rejects(client.call("dispatch", { profile: "no-such-profile" }), (e: unknown) => {
      return e instanceof RoostError && e.code === "not_found" && /no-such-profile/.test(e.message);
    });
    await assert.rejects(client.call("reply", { id: "nobody", text: "hi" }), isCode("not_found"));
    await assert.rejects(
      client.call("rename", { id: "nobody", name: "" }),
      (e: unknown) => e instanceof RoostError,
    );
    const { id, name } = await client.call("dispatch", { profile: "sleeper", name: "napper" });
    assert.equal(name, "napper");
    const { rows } = await client.call("list", {});
    assert.equal(rows.find((r) => r.id === id)?.profile, "sleeper");
    await client.call("rm", { id });
  } finally {
    client.close();
  }
  assert.equal(client.isOpen, false);
  await assert.rejects(client.call("list", {}), isCode("disconnected"));
});

test("subscribers get row events, through on() and through events()", async () => {
  const watcher = await DaemonClient.connect({ home: daemon.home });
  const controller = await DaemonClient.connect({ home: daemon.home });
  try {
    const seen: JobRow[] = [];
    watcher.on("row", (event) => seen.push(event.row));
    const iterated: EventMessage[] = [];
    const iterating = (async () => {
      for await (const event of watcher.events()) {
        iterated.push(event);
        if (event.event === "row-removed") return;
      }
    })();
    const { rows } = await watcher.call("subscribe", {});
    assert.ok(Array.isArray(rows));
    const { id } = await controller.call("dispatch", { profile: "sleeper", name: "watched" });
    await waitFor("a row event", async () => (seen.some((r) => r.id === id) ? true : undefined));
    await controller.call("pin", { id, pinned: true });
    await waitFor("the pinned row", async () =>
      seen.some((r) => r.id === id && r.pinned) ? true : undefined,
    );
    await controller.call("rm", { id });
    await iterating;
    assert.ok(iterated.some((e) => e.event === "row"));
    assert.deepEqual(iterated.at(-1), { event: "row-removed", id });
  } finally {
    watcher.close();
    controller.close();
  }
});

test("events() ends when the connection does", async () => {
  const client = await DaemonClient.connect({ home: daemon.home });
  await client.call("subscribe", {});
  const ended = (async () => {
    let count = 0;
    for await (const _ of client.events()) count++;
    return count;
  })();
  client.close();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"still iterating">(
    (resolve) => (timer = setTimeout(resolve, 5000, "still iterating")),
  );
  const outcome = await Promise.race([ended, late]);
  clearTimeout(timer);
  assert.equal(typeof outcome, "number", "the loop ended with the connection");
});

test("an op answered busy is tried again for a while; then the refusal is passed on", async () => {
  const scripted = await new ScriptedDaemon().listen();
  try {
    let refusals = 2;
    scripted.answer = () =>
      refusals-- > 0 ? { code: "busy", error: "try again shortly" } : { result: { rows: [] } };
    const patient = await DaemonClient.connect({ socketPath: scripted.socketPath });
    assert.deepEqual(await patient.call("list", {}), { rows: [] });
    assert.equal(scripted.ops("list").length, 3);
    patient.close();
    refusals = 1;
    const hasty = await DaemonClient.connect({ socketPath: scripted.socketPath, busyRetryMs: 0 });
    await assert.rejects(hasty.call("list", {}), isCode("busy"));
    assert.equal(scripted.ops("list").length, 4);
    hasty.close();
  } finally {
    await scripted.dispose();
  }
});
