// A per-day budget on a real daemon, its sessions' usage reported over the agent protocol (as pi
// reports it): the day's count is what the sessions of its profile added today, a `stop` budget
// stops each session that adds to it once it is spent, and a new session of the profile is refused;
// the day's count outlives a daemon restart, and a budget raised lets the fleet go on.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
  jobSecrets,
  type Message,
  type RawConnection,
  startTestDaemon,
  TEST_PROFILES,
  waitFor,
} from "./helpers/daemon.js";
import { rowWhen } from "./helpers/terminal.js";

/** Sessions whose reports the test makes itself (`sleep` as a protocol job), under two profiles. */
const PROFILES = { mute: TEST_PROFILES.mute, other: TEST_PROFILES.mute };

const config = (tokens: number) => ({
  agentProfiles: PROFILES,
  budgets: [{ tokens, per: "day", action: "stop", profile: "mute" }],
});

test("a per-day stop budget: the day's count stops each session that adds to it, refuses new ones, outlives a restart, and lifts when raised", async () => {
  const daemon = await startTestDaemon({ config: config(100) });
  let hub = await daemon.connect();
  const agents: RawConnection[] = [];
  try {
    const dispatch = (profile: string) => hub.request("dispatch", { profile, cwd: daemon.home });
    const ids: Record<string, string> = {};
    for (const [name, profile] of [
      ["a", "mute"],
      ["b", "mute"],
      ["c", "other"],
    ] as const) {
      const answer = await dispatch(profile);
      assert.equal(answer.ok, true, answer.error);
      ids[name] = answer.result.id as string;
    }
    const secrets = await jobSecrets(daemon.stateDir);
    /** Reports the session's usage so far (its input tokens), as its agent would. */
    const spent = async (name: string, input: number) => {
      const agent = await daemon.connect();
      agents.push(agent);
      const secret = secrets.find((s) => s.id === ids[name])!;
      const report = { state: "working", usage: { input, output: 0, cacheRead: 0, cacheWrite: 0 } };
      const answer = await agent.request("report", { ...secret, report });
      assert.equal(answer.ok, true, answer.error);
    };
    const row = async (name: string) =>
      ((await hub.request("list")).result.rows as Message[]).find((r) => r.id === ids[name])!;
    const stoppedFor = (used: number) =>
      `stopped: over the budget of 100 tokens a day for the mute sessions (${used} tokens used today by them; budgets[0] in roost.json)`;

    await spent("a", 60);
    await spent("c", 500);
    await rowWhen(hub, ids.c!, (r) => r.usage?.input === 500);
    assert.equal((await row("a")).lifecycle, "running", "60 of 100; the other profile's 500 are not counted");

    // b's 50 pass the day's budget: b is stopped; a, which added nothing since, runs on.
    await spent("b", 50);
    const b = await rowWhen(hub, ids.b!, (r) => r.lifecycle === "stopped");
    assert.equal(b.error, stoppedFor(110));
    assert.equal((await row("a")).lifecycle, "running");
    // a adds 10 more: stopped in its turn.
    await spent("a", 70);
    const a = await rowWhen(hub, ids.a!, (r) => r.lifecycle === "stopped");
    assert.equal(a.error, stoppedFor(120));
    assert.equal((await row("c")).lifecycle, "running");

    const refused = await dispatch("mute");
    assert.equal(refused.code, "over_budget", JSON.stringify(refused));
    assert.equal(
      refused.error,
      "a new mute session would be over the budget of 100 tokens a day for the mute sessions " +
        "(120 tokens used today by them; budgets[0] in roost.json): raise it there, or wait for the next day; nothing was started",
    );
    assert.equal((await dispatch("other")).ok, true);
    const reply = await hub.request("reply", { id: ids.a, text: "go on" });
    assert.equal(reply.code, "over_budget");
    assert.match(reply.error, /nothing was sent$/);
    const events = ((await hub.request("events", {})).result.events as Message[]).filter(
      (e) => e.kind === "budget",
    );
    assert.deepEqual(
      events.map((e) => [e.why, e.jobs]),
      [
        ["stop", [ids.b]],
        ["stop", [ids.a]],
      ],
    );

    // The day's count is kept: after a restart the profile is still over its budget.
    hub.close();
    await daemon.kill();
    await daemon.start();
    hub = await daemon.connect();
    assert.equal((await dispatch("mute")).code, "over_budget");

    // Raised, the budget lets the profile go on (an edit is read within a second).
    writeFileSync(join(daemon.home, "roost.json"), JSON.stringify(config(1000)));
    const taken = await waitFor("the raised budget to be read", async () => {
      const answer = await dispatch("mute");
      return answer.ok ? answer : undefined;
    });
    assert.equal(typeof taken.result.id, "string");
    assert.equal((await hub.request("respawn", { id: ids.a })).ok, true);
  } finally {
    for (const agent of agents) agent.close();
    hub.close();
    await daemon.stop();
  }
});
