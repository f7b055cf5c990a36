// A dispatched task typed as a dialog comes up over the prompt: it waits through the dialog and
// goes once the person answered it (a real program under a real pty, a real daemon).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { type RawConnection, startTestDaemon, type TestDaemon, waitFor } from "./helpers/daemon.js";
import { rowWhen } from "./helpers/terminal.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/terminal-trust-late.py", import.meta.url));
let daemon: TestDaemon;
let conn: RawConnection;

before(async () => {
  daemon = await startTestDaemon({
    config: {
      agentProfiles: {
        late: { command: ["python3", FIXTURE], task: "type", protocol: false, reader: "codex" },
      },
    },
  });
  conn = await daemon.connect();
});
after(async () => {
  conn?.close();
  await daemon?.stop();
});

const received = (dir: string) => {
  try {
    return readFileSync(join(dir, "received.txt"), "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
};

test("a trust screen that comes up as the task is typed: the task waits for the person and goes once trusted", async () => {
  const answer = await conn.request("dispatch", {
    profile: "late",
    task: "TASK after trust",
    cwd: daemon.home,
  });
  assert.equal(answer.ok, true, JSON.stringify(answer));
  const id = answer.result.id as string;
  const dir = join(daemon.stateDir, "jobs", id);
  const trust = await rowWhen(conn, id, (r) => (r.choices ?? []).includes("Trust and continue"));
  assert.equal(trust.state, "blocked");
  await waitFor("the first paste lost", async () => (received(dir).length > 0 ? true : undefined));
  assert.deepEqual(received(dir), ["lost under the trust screen: TASK after trust"]);
  const trusted = await conn.request("reply", { id, text: "Trust and continue" });
  assert.equal(trusted.result?.saved, true, JSON.stringify(trusted));
  await rowWhen(conn, id, (r) => r.summary === "ANSWER: TASK after trust");
  assert.deepEqual(received(dir), [
    "lost under the trust screen: TASK after trust",
    "trusted",
    "took TASK after trust",
  ]);
});
