// A reply from the hub to a finished row: one whose command runs anew asks first (nothing runs
// without the confirmation, and with it, it runs once); one that resumes says so on its reply line.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { TEST_PROFILES, waitFor } from "./helpers/daemon.js";
import { type HubHarness, startHubHarness } from "./helpers/hub-harness.js";

const ESC = "\x1b";
const ENTER = "\r";
const HOME = "\x1b[H";

const folder = mkdtempSync(join(tmpdir(), "roost-hub-deploy-"));
const CONFIG = {
  agentProfiles: {
    deploy: { command: ["/bin/sh", "-c", "echo run >> runs.txt; echo deployed"] },
    agent: TEST_PROFILES.agent,
  },
};
const runs = () => readFileSync(join(folder, "runs.txt"), "utf8").split("\n").filter(Boolean).length;

async function select(h: HubHarness, name: string): Promise<void> {
  const selectedName = () => h.hub.state.rows.get(h.hub.state.selectedId ?? "")?.name;
  h.terminal.type(HOME);
  for (let i = 0; i < 20 && selectedName() !== name; i++) h.terminal.type("j");
  assert.equal(selectedName(), name);
}

test("the hub: a reply to a done one-shot job asks first, runs it once when confirmed; a resuming one says so", async (t) => {
  const h = await startHubHarness(100, 30, { config: CONFIG });
  t.after(() => h.close());
  const deploy = (await h.raw.request("dispatch", { profile: "deploy", name: "deploy", cwd: folder })).result
    .id;
  await h.waitForScreen("deploy done", (s) => /✓ deploy +done/.test(s));
  assert.equal(runs(), 1);

  await select(h, "deploy");
  h.terminal.type(ENTER);
  await h.waitForScreen("the confirmation", (s) =>
    s.includes("A reply starts deploy again: y/Enter: write it  Esc: cancel"),
  );
  // Typing before confirming types nothing: only y, Enter, n or Esc answer.
  h.terminal.type("o", "k");
  assert.equal(h.hub.state.mode.kind, "confirm-start");
  h.terminal.type(ESC);
  await h.waitForScreen("the confirmation gone", (s) => !s.includes("A reply starts deploy again"));
  assert.doesNotMatch(await h.terminal.text(), /⤷ reply/);
  assert.equal(runs(), 1, "nothing ran without the confirmation");

  h.terminal.type(ENTER);
  await h.waitForScreen("the confirmation again", (s) => s.includes("A reply starts deploy again"));
  h.terminal.type(ENTER);
  h.terminal.type(..."ok cool");
  await h.waitForScreen("the reply line saying so", (s) =>
    s.includes("⤷ reply · starts deploy again › ok cool"),
  );
  assert.equal(runs(), 1, "nothing runs before the reply is sent");
  h.terminal.type(ENTER);
  await h.waitForScreen("the outcome", (s) =>
    s.includes("deploy started again. It ended (done) before it asked anything: the reply was not typed."),
  );
  await waitFor("deploy done again", async () =>
    (await h.raw.request("list")).result.rows.find((r: { id: string }) => r.id === deploy)?.lifecycle ===
    "done"
      ? true
      : undefined,
  );
  assert.equal(runs(), 2, "it ran once");

  // A protocol agent resumes: its reply line says so, and the reply needs no confirmation.
  const agent = (await h.raw.request("dispatch", { profile: "agent", name: "worker", task: "done" })).result
    .id;
  await h.waitForScreen("worker done", (s) => /✓ worker +done/.test(s));
  await select(h, "worker");
  h.terminal.type(ENTER);
  h.terminal.type(..."say:back");
  await h.waitForScreen("the reply line", (s) => s.includes("⤷ reply · resumes worker › say:back"));
  h.terminal.type(ENTER);
  await h.waitForScreen("the outcome", (s) => /worker resumes\. Reply #\d+ saved for worker\./.test(s));
  await h.waitForScreen("worker back", (s) => /worker +working +back/.test(s));
  assert.deepEqual(
    (await h.raw.request("list")).result.rows.find((r: { id: string }) => r.id === agent)?.lifecycle,
    "running",
  );
});
