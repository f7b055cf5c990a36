import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { speakFor } from "./helpers/a2a.js";
import { type RawConnection, TEST_PROFILES } from "./helpers/daemon.js";
import { HUB_TEST_CONFIG, type HubHarness, startHubHarness } from "./helpers/hub-harness.js";

let h: HubHarness;
const conns: RawConnection[] = [];

before(async () => {
  const agentProfiles = { ...HUB_TEST_CONFIG.agentProfiles, mute: TEST_PROFILES.mute };
  h = await startHubHarness(100, 30, { config: { agentProfiles } });
});
after(async () => {
  for (const c of conns) c.close();
  await h?.close();
});

test("the hub shows the concierge live: its line, a need on it, a suggestion sent with y, its menu, an ask", async () => {
  const on = await h.raw.request("concierge", { action: "on", launch: { profile: "mute" } });
  const cid = on.result.job.id as string;
  await h.waitForScreen("the concierge's line", (s) => s.includes("◆ concierge · c asks it, C sets it"));
  const concierge = await speakFor(h.daemon, cid, { state: "working", status: "idle", agentItems: true });
  conns.push(concierge);
  const asker = (await h.raw.request("dispatch", { profile: "mute", name: "asker" })).result.id as string;
  const askerConn = await speakFor(h.daemon, asker, {
    state: "blocked",
    status: "waiting",
    waitingFor: "question",
    question: "Tabs or spaces?",
  });
  conns.push(askerConn);
  await h.waitForScreen("the question", (s) => s.includes("Tabs or spaces?"));

  assert.equal(
    (await concierge.request("concierge-suggest", { id: asker, text: "tabs", why: "house style" })).ok,
    true,
  );
  await h.waitForScreen("the suggestion", (s) =>
    s.includes('✦ concierge suggests "tabs" (house style) · y sends it'),
  );
  h.terminal.type("\t", "y");
  const sent = await askerConn.nextEvent((e) => e.event === "deliver");
  assert.equal(sent.text, "tabs");

  await concierge.request("concierge-say", { kind: "need", text: "the deploy needs your word" });
  await h.waitForScreen("the need", (s) => s.includes("needs you: the deploy needs your word"));

  h.terminal.type("C");
  await h.waitForScreen("the menu", (s) => s.includes("Concierge o: off · a: answers never"));
  h.terminal.type("a");
  await h.waitForScreen("the policy pushed back", (s) => s.includes("answers routine"));

  h.terminal.type("c", ..."anything else?", "\r");
  const asked = await concierge.nextEvent((e) => e.event === "deliver" && e.text === "anything else?");
  assert.equal(asked.kind, undefined);
});
