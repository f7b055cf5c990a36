// After a reboot, real Claude Code and Codex jobs on the fake model servers: every roost process
// and every agent SIGKILLed, the next daemon start lists them `interrupted`; `roost resume --all`
// brings each back taking up its conversation (the model's next request carries the earlier turn);
// a reply sent to one while it was down reaches the model once; `resumeAfterReboot` brings them
// back by itself; a daemon killed alone interrupts nothing.
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  type Message,
  type RawConnection,
  startTestDaemon,
  type TestDaemon,
  waitFor,
} from "./helpers/daemon.js";
import { type FakeModel, startFakeAnthropic, startFakeResponses } from "./helpers/fake-models.js";
import {
  answered,
  askJob,
  claudeProfile,
  cliProgram,
  codexProfile,
  projectFolder,
} from "./helpers/real-clis.js";
import { reboot } from "./helpers/reboot.js";
import { rowWhen } from "./helpers/terminal.js";

const START_MS = 60_000;
const claude = cliProgram("claude");
const codex = cliProgram("codex");
const missing = "skip" in claude ? claude.skip : "skip" in codex ? codex.skip : false;

/** One job of each program, on its own fake model, and what it was first told to keep. */
interface Agent {
  name: "claude" | "codex";
  model: FakeModel;
  id: string;
  remembers: string;
  sessionId: string;
}

describe("after a reboot, Claude Code and Codex jobs come back with their conversations", {
  skip: missing,
}, () => {
  let cwd = "";
  let daemon: TestDaemon;
  let conn: RawConnection;
  let config: { agentProfiles: Record<string, unknown>; resumeAfterReboot?: boolean };
  const agents: Agent[] = [];

  before(async () => {
    cwd = projectFolder();
    const anthropic = await startFakeAnthropic();
    const responses = await startFakeResponses();
    config = {
      agentProfiles: {
        claude: claudeProfile((claude as { program: string }).program, anthropic.url, [cwd]),
        codex: codexProfile((codex as { program: string }).program, responses.url, [cwd]),
      },
    };
    daemon = await startTestDaemon({ config });
    conn = await daemon.connect();
    for (const [name, model, remembers] of [
      ["claude", anthropic, "apple"],
      ["codex", responses, "pear"],
    ] as const) {
      const task = `remember ${remembers}`;
      const answer = await conn.request("dispatch", { profile: name, task: `TASK ${task}`, cwd });
      assert.equal(answer.ok, true, JSON.stringify(answer));
      agents.push({ name, model, id: answer.result.id, remembers, sessionId: "" });
    }
    for (const agent of agents) {
      // Its record holds the turn (the program writes it as it goes): there is something to resume.
      const row = await rowWhen(
        conn,
        agent.id,
        (r) => answered(`remember ${agent.remembers}`)(r) && r.usage !== null,
        START_MS,
      );
      agent.sessionId = row.conversation.sessionId;
    }
  });
  after(async () => {
    conn?.close();
    await daemon?.stop();
    for (const agent of agents) await agent.model.close();
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  const rows = async (): Promise<Message[]> => (await conn.request("list")).result.rows;

  /** Every roost process and both programs killed, the daemon started again: both rows interrupted. */
  async function rebootAll(): Promise<void> {
    conn.close();
    assert.equal((await reboot(daemon)).length, agents.length, "both programs were killed");
    conn = await daemon.connect();
  }

  /** The times the model was given `task`, and the conversation it was given with it the last time. */
  const told = (agent: Agent, task: string) => ({
    times: agent.model.tasks.filter((t) => t === `TASK ${task}`).length,
    turn: agent.model.turns[agent.model.tasks.lastIndexOf(`TASK ${task}`)] ?? "",
  });

  /** Asks each agent `task` and checks the model got it once, with the turn it was first told. */
  async function askEach(task: string): Promise<void> {
    for (const agent of agents) {
      const row = await askJob(conn, agent.id, `${task} ${agent.name}`, START_MS);
      assert.deepEqual(row.resume, { resumed: true, note: null }, agent.name);
      assert.equal(row.conversation.sessionId, agent.sessionId, `${agent.name}: the same conversation`);
      const { times, turn } = told(agent, `${task} ${agent.name}`);
      assert.equal(times, 1, `${agent.name} was told once`);
      assert.match(turn, new RegExp(`remember ${agent.remembers}`), `${agent.name}: the earlier turn`);
    }
  }

  test("a daemon killed alone: both are taken up in the processes they run in, none interrupted", async () => {
    const before = new Map((await rows()).map((r) => [r.id, r.pid]));
    conn.close();
    await daemon.kill("SIGKILL");
    await daemon.start();
    conn = await daemon.connect();
    for (const row of await rows()) {
      assert.equal(row.lifecycle, "running", row.name);
      assert.equal(row.pid, before.get(row.id), `${row.name} runs on in its process`);
    }
    const out = await daemon.cli(["resume", "--all"]);
    assert.equal(out.stdout, "nothing to resume: no job is interrupted\n");
  });

  test("a reboot: both listed interrupted; roost resume --all brings each back, taking up its conversation", async () => {
    await rebootAll();
    for (const row of await rows()) {
      assert.equal(row.lifecycle, "interrupted", row.name);
      assert.equal(row.pid, null);
    }
    const ls = await daemon.cli(["ls"]);
    assert.match(ls.stdout, /claude +interrupted +.*went down with roost or the machine/);
    assert.match(ls.stdout, /\n2 jobs were interrupted .*roost resume --all brings each back/);

    const out = await daemon.cli(["resume", "--all"]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(
      out.stdout,
      agents.map((a) => `resumed ${a.name} (${a.id}), taking up its conversation\n`).join(""),
    );
    await askEach("after the reboot");
  });

  test("a reply to an interrupted job resumes it and reaches the model once; resume --all then takes only the other", async () => {
    await rebootAll();
    const [first, second] = agents as [Agent, Agent];
    const row = await askJob(conn, first.id, "while down", START_MS);
    assert.deepEqual(row.resume, { resumed: true, note: null });
    assert.equal(told(first, "while down").times, 1, "typed once");
    assert.match(told(first, "while down").turn, /remember apple/);
    assert.equal((await rows()).find((r) => r.id === second.id)!.lifecycle, "interrupted");

    const out = await daemon.cli(["resume", "--all", "--json"]);
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(
      JSON.parse(out.stdout).resumed.map((j: Message) => j.id),
      [second.id],
    );
    await rowWhen(conn, second.id, (r) => r.lifecycle === "running", START_MS);
    assert.equal(told(first, "while down").times, 1, "not typed again by the resume");
  });

  test("resumeAfterReboot: both come back by themselves, each taking up its conversation", async () => {
    writeFileSync(join(daemon.home, "roost.json"), JSON.stringify({ ...config, resumeAfterReboot: true }));
    await rebootAll();
    for (const agent of agents)
      await rowWhen(
        conn,
        agent.id,
        (r) => r.lifecycle === "running" && r.resume?.resumed === true && r.pid !== null,
        START_MS,
      );
    await waitFor("the log line", async () =>
      /resumeAfterReboot: 2 of 2 interrupted jobs resumed/.test(
        readFileSync(join(daemon.stateDir, "daemon.log"), "utf8"),
      )
        ? true
        : undefined,
    );
    await askEach("by themselves");
  });
});
