// A protocol agent's answer to a question it no longer asks is held, not given to the new one.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { speakFor } from "./helpers/a2a.js";
import {
  type Message,
  type RawConnection,
  startTestDaemon,
  TEST_PROFILES,
  type TestDaemon,
} from "./helpers/daemon.js";

let daemon: TestDaemon;
let hub: RawConnection;
const conns: RawConnection[] = [];

before(async () => {
  daemon = await startTestDaemon({ config: { agentProfiles: { mute: TEST_PROFILES.mute } } });
  hub = await daemon.connect();
});
after(async () => {
  for (const c of conns) c.close();
  hub?.close();
  await daemon?.stop();
});

const rowOf = async (id: string): Promise<Message | undefined> =>
  ((await hub.request("list", {})).result.rows as Message[]).find((r) => r.id === id);

const asks = (question: string, choices: string[]) => ({
  state: "blocked",
  status: "waiting",
  waitingFor: "question",
  question,
  choices,
});

test("a pick made under an old question is held and the person told; sent on, it reaches the agent once; an answer to the question asked goes", async () => {
  const { id } = (await hub.request("dispatch", { profile: "mute", name: "player" })).result;
  const agent = await speakFor(daemon, id, asks("t=0s: where to?", ["take toolbox-1", "move_to bridge"]));
  conns.push(agent);
  // The player moved on to its next observation before the pick arrived.
  const moved = await agent.request("report", {
    id,
    token: agent.token,
    report: asks("t=5s: what now?", ["drop toolbox-1", "repair bridge"]),
  });
  assert.equal(moved.ok, true);

  const stale = await hub.request("reply", { id, text: "take toolbox-1", question: "t=0s: where to?" });
  assert.equal(stale.ok, true, JSON.stringify(stale));
  assert.deepEqual(stale.result, { held: true, saved: false, asks: "other" });
  const row = await rowOf(id);
  assert.equal(row?.held?.text, "take toolbox-1", "the row shows it held");
  assert.equal(row?.pending, 0, "nothing queued for the agent");

  // An answer to the question it asks now is delivered, and the held one is no longer wanted.
  const fresh = await hub.request("reply", { id, text: "repair bridge", question: "t=5s: what now?" });
  assert.equal(fresh.result.saved, true, JSON.stringify(fresh));
  const first = await agent.nextEvent((e) => e.event === "deliver");
  assert.equal(first.text, "repair bridge", "the held pick never reached the agent");
  assert.equal((await rowOf(id))?.held ?? null, null);

  // Held again, the person sends it on as the answer to what it asks now: delivered once.
  await hub.request("reply", { id, text: "drop toolbox-1", question: "t=0s: where to?" });
  const sent = await hub.request("reply", { id, held: "send" });
  assert.equal(sent.result.saved, true, JSON.stringify(sent));
  const second = await agent.nextEvent((e) => e.event === "deliver" && e.text === "drop toolbox-1");
  assert.equal(second.seq, first.seq + 1);
  assert.equal((await rowOf(id))?.held ?? null, null);
  // Dropped, nothing reaches the agent; with none held, send says so.
  await hub.request("reply", { id, text: "move_to bridge", question: "t=0s: where to?" });
  assert.deepEqual((await hub.request("reply", { id, held: "drop" })).result, {
    dropped: true,
    saved: false,
  });
  const none = await hub.request("reply", { id, held: "send" });
  assert.equal(none.code, "not_found");
  assert.match(none.error, /holds no reply/);
  // A steer is guidance, never an answer: it goes whatever the agent asks.
  const steer = await hub.request("reply", { id, text: "hurry", mode: "steer", question: "t=0s: where to?" });
  assert.equal(steer.result.saved, true);
});
