import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { DaemonClient } from "../src/client/daemon-client.js";
import type { JobRow } from "../src/protocol/rows.js";
import { startTestDaemon, type TestDaemon, waitFor } from "./helpers/daemon.js";

/** Waits that include an agent starting (node, or python) get this long on a busy machine. */
const AGENT_START_MS = 60_000;

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const sdk = fileURLToPath(new URL("../sdk/python", import.meta.url));
const python = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], {
  encoding: "utf8",
}).trim();

interface LogEntry {
  event: "start" | "connected" | "handled";
  pid: number;
  seq?: number;
  text?: string;
}

/** Each client runs the same scripted agent (test/fixtures/client-agent.*). */
const CLIENTS = [
  {
    client: "TypeScript",
    agentName: "fixture-ts",
    profile: (logDir: string) => ({
      command: [process.execPath, fixture("client-agent.mjs")],
      task: "type",
      protocol: true,
      env: { FIXTURE_LOG_DIR: logDir },
    }),
  },
  {
    client: "Python",
    agentName: "fixture-py",
    profile: (logDir: string) => ({
      command: [python, fixture("client-agent.py")],
      task: "type",
      protocol: true,
      env: { FIXTURE_LOG_DIR: logDir, PYTHONPATH: sdk },
    }),
  },
];

// One client after the other, each with a daemon of its own (two daemons starting at once on a
// loaded machine can take longer than a test daemon is given to start).
describe("the agent protocol", () => {
  for (const { client, agentName, profile } of CLIENTS) {
    describe(`${client} client`, () => {
      const logDir = mkdtempSync(join(tmpdir(), "roost-conformance-"));
      let daemon: TestDaemon;
      let jobId = "";
      let replies = 1;

      before(async () => {
        daemon = await startTestDaemon({ config: { agentProfiles: { scripted: profile(logDir) } } });
      });
      after(async () => {
        try {
          await daemon?.stop();
        } finally {
          rmSync(logDir, { recursive: true, force: true });
        }
      });

      async function call<T>(use: (c: DaemonClient) => Promise<T>): Promise<T> {
        const c = await DaemonClient.connect({ home: daemon.home });
        try {
          return await use(c);
        } finally {
          c.close();
        }
      }
      const row = async (): Promise<JobRow> =>
        (await call((c) => c.call("list", {}))).rows.find((r) => r.id === jobId)!;
      const rowWhen = (what: string, predicate: (r: JobRow) => boolean) =>
        waitFor(
          what,
          async () => {
            const r = await row();
            return r && predicate(r) ? r : undefined;
          },
          AGENT_START_MS,
        );
      const entries = (): LogEntry[] => {
        const file = join(logDir, `${jobId}.jsonl`);
        if (!existsSync(file)) return [];
        return readFileSync(file, "utf8")
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line) as LogEntry);
      };
      const handled = () => entries().filter((e) => e.event === "handled");
      const logWhen = (what: string, predicate: (log: LogEntry[]) => boolean) =>
        waitFor(what, async () => (predicate(entries()) ? entries() : undefined), AGENT_START_MS);
      const reply = async (text: string) => {
        const result = await call((c) => c.call("reply", { id: jobId, text }));
        assert.ok("seq" in result && result.seq === ++replies, JSON.stringify(result));
        return replies;
      };

      test("the first task arrives as reply 1, reports set the row, acks clear the pending replies", async () => {
        console.error("TEST1", client, Date.now(), daemon.home);
        const started = await call((c) =>
          c.call("dispatch", { profile: "scripted", task: "count the words", name: `${agentName}-job` }),
        );
        jobId = started.id;
        await logWhen("reply 1", (log) => log.some((e) => e.event === "handled"));
        assert.deepEqual(
          handled().map((e) => [e.seq, e.text]),
          [[1, "count the words"]],
        );
        const first = await rowWhen(
          "the row from the report",
          (r) => r.summary === "handled #1: count the words",
        );
        assert.equal(first.state, "blocked");
        assert.equal(first.waitingFor, "question");
        assert.equal(first.question, "what after count the words?");
        assert.equal(first.reported, true);
        assert.equal(first.connected, true);
        assert.equal(first.kind, "protocol");
        assert.deepEqual(first.agent, { name: agentName, version: "1.0" });
        assert.ok(first.capabilities.includes("replies"), String(first.capabilities));
        await rowWhen("the ack of reply 1", (r) => r.pending === 0);

        const seq = await reply("second");
        await rowWhen("the row after reply 2", (r) => r.summary === "handled #2: second" && r.pending === 0);
        assert.deepEqual(
          handled().map((e) => e.seq),
          [1, seq],
        );
      });

      for (const signal of ["SIGTERM", "SIGKILL"] as const) {
        test(`the daemon restarted under the agent (${signal}): it reconnects, says hello, reports, and takes the next reply once`, async () => {
          const connections = entries().filter((e) => e.event === "connected").length;
          const pids = new Set(entries().map((e) => e.pid));
          await daemon.kill(signal);
          await daemon.start();
          await logWhen(
            "the reconnection",
            (log) => log.filter((e) => e.event === "connected").length > connections,
          );
          const back = await rowWhen("the job connected again", (r) => r.connected);
          assert.equal(back.lifecycle, "running");
          assert.equal(back.summary, `handled #${replies}: ${handled().at(-1)?.text}`);
          const seq = await reply(`after ${signal}`);
          await rowWhen(
            "the next reply handled and acked",
            (r) => r.summary === `handled #${seq}: after ${signal}`,
          );
          await rowWhen("no reply pending", (r) => r.pending === 0);
          assert.equal(handled().filter((e) => e.seq === seq).length, 1);
          assert.deepEqual(new Set(entries().map((e) => e.pid)), pids, "the same agent process throughout");
        });
      }

      test("an agent killed between its handler and its ack is started again and does not handle that reply twice", async () => {
        const before = await row();
        const seq = await reply("die-before-ack");
        const firstPid = handled().at(-1)?.pid;
        await logWhen("the agent started again", (log) =>
          log.some((e) => e.event === "start" && e.pid !== log[0]!.pid),
        );
        const again = await rowWhen("the restarted agent's ack", (r) => r.connected && r.pending === 0);
        assert.ok(again.restarts > before.restarts, `restarts ${before.restarts} → ${again.restarts}`);
        const times = handled().filter((e) => e.seq === seq);
        assert.equal(times.length, 1, JSON.stringify(times));
        assert.equal(times[0]!.pid, firstPid);
        // The new process takes the next reply, once.
        const next = await reply("after the crash");
        await rowWhen(
          "the next reply",
          (r) => r.summary === `handled #${next}: after the crash` && r.pending === 0,
        );
        assert.notEqual(handled().at(-1)?.pid, firstPid);
      });

      test("the agent exits and the row says so; every reply was handled exactly once", async () => {
        const seq = await reply("exit");
        // The process's exit and its connection's close reach the daemon in either order.
        const ended = await rowWhen(
          "the job done, its connection closed",
          (r) => r.lifecycle === "done" && !r.connected,
        );
        assert.equal(ended.state, "done");
        assert.equal(ended.summary, "finished");
        assert.equal(ended.connected, false);
        assert.equal(ended.pending, 0);
        assert.equal(ended.exitCode, 0);
        const seqs = handled().map((e) => e.seq);
        assert.deepEqual(
          seqs,
          Array.from({ length: seq }, (_, i) => i + 1),
        );
      });
    });
  }
});
