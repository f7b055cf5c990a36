import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before } from "node:test";
import { fileURLToPath } from "node:url";
import { DaemonClient } from "pi-roost/client";
import type { JobRow } from "pi-roost/protocol";

import { createRun } from "../../src/index.js";
import type { Briefing, Envelope } from "../../src/protocol/index.js";
import { warrenBin } from "./warren-process.js";

const warrenDir = fileURLToPath(new URL("../..", import.meta.url));
/** roost's command, as installed beside warren (the workspace's build). */
const roostBin = join(
  dirname(fileURLToPath(import.meta.resolve("pi-roost/agent"))),
  "..",
  "..",
  "bin",
  "roost.js",
);

/** `warren serve --port 0`; resolves once it listens, with its URL. */
export async function startWarrenServe(): Promise<{ url: string; stop(): void }> {
  const child: ChildProcess = spawn(process.execPath, [warrenBin, "serve", "--port", "0", "--no-persist"], {
    cwd: warrenDir,
    // Read, never inherited: a server left behind would hold the test runner's output open.
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stop = (): void => void child.kill("SIGKILL");
  process.once("exit", stop);
  let text = "";
  child.stderr!.on("data", (d) => (text += String(d)));
  for await (const chunk of child.stdout!) {
    text += String(chunk);
    const url = /listening on (\S+)/.exec(text)?.[1];
    if (url) return { url, stop };
  }
  throw new Error(`warren serve did not start: ${text}`);
}

/** A roost home whose roost.json has the `warren-play` profile. */
export function playHome(): { home: string; remove(): void } {
  const home = mkdtempSync(join(tmpdir(), "warren-play-"));
  const profile = {
    command: ["/bin/sh", "-c", `exec "$0" "$1" play $2`, process.execPath, warrenBin],
    task: "argv",
    protocol: true,
    cwd: warrenDir,
  };
  writeFileSync(join(home, "roost.json"), JSON.stringify({ agentProfiles: { "warren-play": profile } }));
  return { home, remove: () => rmSync(home, { recursive: true, force: true, maxRetries: 5 }) };
}

/** `roost ARGS` on a home; resolves with its exit code and output. */
export function roost(
  home: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [roostBin, ...args], {
      env: { ...process.env, ROOST_HOME: home },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** The job's row once `ready` holds for it, read over a controller connection. */
export async function rowWhen(
  home: string,
  id: string,
  ready: (row: JobRow) => boolean,
  timeoutMs = 60_000,
): Promise<JobRow> {
  const deadline = Date.now() + timeoutMs;
  let last: JobRow | undefined;
  for (;;) {
    const client = await DaemonClient.connect({ home, start: true }).catch(() => undefined);
    try {
      for (; client?.isOpen && Date.now() < deadline; ) {
        last = (await client.call("list", {})).rows.find((r) => r.id === id);
        if (last && ready(last)) return last;
        await new Promise((r) => setTimeout(r, 50));
      }
    } catch {
      // The daemon went away (a test killed it): connect again.
    } finally {
      client?.close();
    }
    if (Date.now() > deadline) throw new Error(`row ${id} never got ready; last: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The engineer's bridge_repair plan, read from an observation's text (as a row asks it, or pi reads it). */
export function engineerReply(question: string): string {
  const carry = /You carry: ([^(]*)\(/.exec(question)?.[1] ?? "";
  const items = /Items here: ([^\n]*)/.exec(question)?.[1] ?? "";
  const woke = question.split("\n").find((line) => line.startsWith("[t=")) ?? "";
  const atBridge = /\) at [^(]*bridge[^(]*\(/i.test(woke);
  if (!carry.includes("toolbox")) return items.includes("toolbox-1") ? "take toolbox-1" : "move_to workshop";
  if (!atBridge) return "move_to bridge";
  return items.includes("plank") ? "repair" : "sleep 2000";
}

/**
 * Registers a suite's hooks: before, a `warren serve` and a roost home with the `warren-play`
 * profile; after, the jobs and the daemon ended, the home removed and the server stopped.
 */
export function playTable(): { readonly url: string; readonly home: string } {
  let warren: { url: string; stop(): void } | undefined;
  let table: { home: string; remove(): void } | undefined;
  before(async () => {
    [warren, table] = await Promise.all([startWarrenServe(), playHome()]);
  });
  after(async () => {
    if (table) {
      await roost(table.home, "shutdown", "--all");
      table.remove();
    }
    warren?.stop();
  });
  return {
    get url() {
      return warren!.url;
    },
    get home() {
      return table!.home;
    },
  };
}

/** Dispatches `warren play SERVER RUN AGENT` as a roost job; its id. */
export async function dispatchPlayer(home: string, task: string): Promise<string> {
  const dispatched = await roost(home, "dispatch", "warren-play", task, "--json");
  assert.equal(dispatched.code, 0, dispatched.stderr);
  return (JSON.parse(dispatched.stdout) as { id: string }).id;
}

/** Sends a reply as `roost reply` does: the command itself, or (quicker) its op on a connection. */
async function sendReply(home: string, id: string, text: string, through: "cli" | "op"): Promise<void> {
  if (through === "cli") {
    const sent = await roost(home, "reply", id, text);
    assert.equal(sent.code, 0, sent.stderr);
    return;
  }
  const client = await DaemonClient.connect({ home });
  try {
    await client.call("reply", { id, text });
  } finally {
    client.close();
  }
}

/**
 * Answers each new question the job's row asks with what `answer` makes of the row, through `roost
 * reply` (or its op), until the job has ended; resolves with the row it ended with.
 */
export async function replyUntilEnded(
  home: string,
  id: string,
  answer: (row: JobRow) => string | Promise<string>,
  through: "cli" | "op" = "cli",
): Promise<JobRow> {
  let asked = "";
  for (let replies = 0; ; replies++) {
    assert.ok(replies < 40, "the engineer's plan takes a dozen moves");
    const row = await rowWhen(
      home,
      id,
      (r) =>
        (r.waitingFor === "question" && r.question !== asked) || ["done", "failed"].includes(r.lifecycle),
    );
    if (row.waitingFor !== "question") return row;
    asked = row.question!;
    await sendReply(home, id, await answer(row), through);
  }
}

/** The engineer's first observation and briefing in bridge_repair (seed 3), from an engine run. */
export async function engineerStart(): Promise<{ envelope: Envelope; briefing: Briefing }> {
  const run = createRun({
    runId: "r",
    scenario: "bridge_repair",
    seed: 3,
    controlledAgents: ["engineer-1"],
    pace: null,
  });
  run.start();
  const envelope = (await run.nextObservation("engineer-1", -1, 5000))!;
  const briefing = run.briefing("engineer-1");
  run.dispose("read its start only");
  return { envelope, briefing };
}
