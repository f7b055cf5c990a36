// Budgets on the real Claude Code, offline on the fake model server (10 input and 5 output tokens
// an answer): a session that passes its token budget is stopped once, with the reason on its row
// and in `roost events`, and what would give it more work is refused until a new conversation;
// a notify budget runs the notify command once per crossing and stops nothing.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import type { NotifyEvent } from "../src/protocol/notify.js";
import { type Message, waitFor } from "./helpers/daemon.js";
import { startFakeAnthropic } from "./helpers/fake-models.js";
import { claudeProfile, cliProgram, realCliProjectSuite } from "./helpers/real-clis.js";
import { rowWhen } from "./helpers/terminal.js";

const START_MS = 60_000;
const found = cliProgram("claude");

describe("claude: budgets", { skip: "skip" in found ? found.skip : false }, () => {
  const s = realCliProjectSuite(
    "claude",
    (found as { program: string }).program,
    startFakeAnthropic,
    claudeProfile,
  );

  /** roost.json with the suite's profile, under its own name and `also` more, and these settings. */
  function configure(settings: object, also: string[] = []): void {
    const profiles = Object.fromEntries(["claude", ...also].map((name) => [name, s.profile]));
    writeFileSync(
      join(s.daemon.home, "roost.json"),
      JSON.stringify({ agentProfiles: profiles, ...settings }),
    );
  }

  /** What the answer to `task` says on its row, once its record counted its tokens. */
  const answered = (task: string, tokens: number) => (r: Message) =>
    r.summary === `ANSWER: ${task}` && r.usage && r.usage.input + r.usage.output === tokens;

  /**
   * Replies `task`. While the program (re)starts a reply is refused untyped (`unsupported`) and
   * sent again; one held because its prompt was not up yet is sent as soon as it is.
   */
  async function ask(id: string, task: string): Promise<void> {
    let held = false;
    await waitFor(
      "the reply to be typed",
      async () => {
        const reply = await s.conn.request(
          "reply",
          held ? { id, held: "send" } : { id, text: `TASK ${task}` },
        );
        if (!reply.ok) throw new Error(JSON.stringify(reply));
        held = reply.result.held === true;
        return !held;
      },
      START_MS,
    );
  }

  async function budgetEvents(id: string): Promise<Message[]> {
    const listed = await s.daemon.cli(["events", "--id", id, "--json"]);
    assert.equal(listed.code, 0, listed.stderr);
    return (JSON.parse(listed.stdout).events as Message[]).filter((e) => e.kind === "budget");
  }

  test("a session that passes its token budget is stopped once, the reason on its row and in roost events; more work waits for a new conversation", async () => {
    configure({ budgets: [{ tokens: 20, per: "session", action: "stop" }] });
    const id = (await s.conn.request("dispatch", { profile: "claude", task: "TASK first", cwd: s.cwd }))
      .result.id as string;
    // 15 tokens: within the budget.
    const within = await rowWhen(s.conn, id, answered("first", 15), START_MS);
    assert.equal(within.lifecycle, "running");
    assert.equal(within.error, null);
    assert.deepEqual(await budgetEvents(id), []);

    // 30 tokens: past it.
    await ask(id, "second");
    const reason =
      "stopped: over its budget of 20 tokens a session (30 tokens used; budgets[0] in roost.json)";
    const stopped = await rowWhen(s.conn, id, (r) => r.lifecycle === "stopped", START_MS);
    assert.equal(stopped.error, reason);
    assert.deepEqual(stopped.usage, { input: 20, output: 10, cacheRead: 0, cacheWrite: 0 });
    const events = await budgetEvents(id);
    assert.deepEqual(
      events.map((e) => [e.why, e.text, e.who]),
      [["stop", `${stopped.name}: ${reason}`, "roost"]],
    );
    const human = await s.daemon.cli(["events", "--id", id]);
    assert.match(human.stdout, /budget\/stop\s+\S+: stopped: over its budget of 20 tokens a session/);
    const ls = JSON.parse((await s.daemon.cli(["ls", "--json"])).stdout) as Message[];
    assert.equal(ls.find((r) => r.id === id)?.error, reason);

    // A reply or a respawn would feed it more: refused, saying which budget and what to do.
    const reply = await s.conn.request("reply", { id, text: "TASK third" });
    assert.equal(reply.code, "over_budget", JSON.stringify(reply));
    assert.match(
      reply.error,
      /is over its budget of 20 tokens a session \(30 tokens used; budgets\[0\] in roost\.json\)/,
    );
    assert.match(reply.error, /roost respawn \S+ --fresh\); nothing was sent$/);
    const cliReply = await s.daemon.cli(["reply", id, "TASK third"]);
    assert.equal(cliReply.code, 1);
    assert.match(cliReply.stderr, /over_budget: .* nothing was sent/);
    const respawn = await s.conn.request("respawn", { id });
    assert.equal(respawn.code, "over_budget", JSON.stringify(respawn));
    assert.match(respawn.error, /nothing was started$/);
    // Stopped once: it did not start again, and no second stop was told.
    const still = await rowWhen(s.conn, id, (r) => r.lifecycle === "stopped", START_MS);
    assert.equal(still.restarts, 0);
    assert.equal((await budgetEvents(id)).length, 1);

    // A new conversation counts from nothing: taken, and it answers within the budget.
    const fresh = await s.conn.request("respawn", { id, fresh: true });
    assert.equal(fresh.ok, true, JSON.stringify(fresh));
    await ask(id, "fresh start");
    const again = await rowWhen(s.conn, id, answered("fresh start", 15), START_MS);
    assert.equal(again.lifecycle, "running");
    assert.equal(again.error, null, "the reason went with the stop");
    assert.notEqual(again.conversation.sessionId, stopped.conversation.sessionId);
    await s.conn.request("rm", { id });
  });

  test("a notify budget runs the notify command once per crossing, the session going on", async () => {
    const out = join(s.daemon.home, "notified.jsonl");
    configure(
      {
        notify: { command: ["/bin/sh", "-c", `cat >> ${out}`] },
        budgets: [
          { tokens: 10, per: "session", action: "notify", profile: "thrifty" },
          { tokens: 20, per: "day", action: "notify", profile: "thrifty" },
        ],
      },
      ["thrifty"],
    );
    const told = (): NotifyEvent[] => {
      try {
        return readFileSync(out, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as NotifyEvent);
      } catch {
        return [];
      }
    };
    const budgetNotices = () => told().filter((e) => e.event === "budget");
    const id = (await s.conn.request("dispatch", { profile: "thrifty", task: "TASK one", cwd: s.cwd })).result
      .id as string;
    const first = await rowWhen(s.conn, id, answered("one", 15), START_MS);
    await ask(id, "two");
    await rowWhen(s.conn, id, answered("two", 30), START_MS);
    await ask(id, "three");
    const third = await rowWhen(s.conn, id, answered("three", 45), START_MS);
    assert.equal(third.lifecycle, "running", "a notify budget stops nothing");
    assert.equal(third.error, null);

    // The feed is written as the usage is counted: by the row's 45 tokens it holds every crossing.
    const session =
      "over its budget of 10 tokens a session for the thrifty sessions (15 tokens used; budgets[0] in roost.json)";
    const day =
      "over the budget of 20 tokens a day for the thrifty sessions (30 tokens used today by them; budgets[1] in roost.json)";
    assert.deepEqual(
      (await budgetEvents(id)).map((e) => [e.why, e.text]),
      [
        ["notify", `${first.name}: ${session}`],
        ["notify", `${first.name}: ${day}`],
      ],
    );
    await waitFor("both notices through the command", () => budgetNotices().length >= 2);
    // A sample after them: a third budget notice, had there been one, would have come by its end.
    const sample = await s.daemon.cli(["notify", "test"]);
    assert.equal(sample.code, 0, sample.stderr);
    await waitFor("the sample", () => told().some((e) => e.event === "test"));
    assert.deepEqual(
      budgetNotices().map((e) => [e.id, e.name, e.profile, e.text]),
      [
        [id, first.name, "thrifty", session],
        [id, first.name, "thrifty", day],
      ],
    );
    await s.conn.request("rm", { id });
  });
});
