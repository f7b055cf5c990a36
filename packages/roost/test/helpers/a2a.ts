import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { DaemonClient } from "../../src/client/daemon-client.js";
import { rowOf } from "./board.js";
import { jobSecrets, type RawConnection, type TestDaemon, waitFor } from "./daemon.js";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const sdk = fileURLToPath(new URL("../../sdk/python", import.meta.url));
export const python = () =>
  execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

/** The agent-to-agent fixture agents, one on each client. */
export function a2aProfiles() {
  return {
    "a2a-ts": {
      command: [process.execPath, "--import", import.meta.resolve("tsx"), fixture("a2a-agent.ts")],
      task: "type",
      protocol: true,
    },
    "a2a-py": {
      command: [python(), fixture("a2a-agent.py")],
      task: "type",
      protocol: true,
      env: { PYTHONPATH: sdk },
    },
  };
}

/** What an a2a agent logged: a command's outcome (`op`) or an agent item (`kind`). */
export interface A2aLogEntry {
  seq: number;
  pid: number;
  op?: string;
  ok?: boolean;
  code?: string;
  error?: string;
  // biome-ignore lint/suspicious/noExplicitAny: what the op answered
  result?: any;
  kind?: string;
  from?: string;
  relation?: string;
  text?: string;
}

export function a2aLog(daemon: TestDaemon, jobId: string): A2aLogEntry[] {
  try {
    return readFileSync(join(daemon.stateDir, "jobs", jobId, "a2a.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as A2aLogEntry);
  } catch {
    return [];
  }
}

/** Waits until a job's agent has reported and holds its connection. */
export async function connected(hub: DaemonClient, id: string): Promise<void> {
  await waitFor(`${id} connected`, async () => {
    const row = await rowOf(hub, id);
    return row?.connected && row.reported && row.lifecycle === "running" ? true : undefined;
  });
}

/** Has the agent run a command (a user reply) and returns what came of it. */
export async function a2aDoes(
  daemon: TestDaemon,
  hub: DaemonClient,
  jobId: string,
  command: Record<string, unknown>,
): Promise<A2aLogEntry> {
  const saved = await hub.call("reply", { id: jobId, text: JSON.stringify(command) });
  if (!("seq" in saved) || saved.seq === undefined)
    throw new Error(`reply not saved: ${JSON.stringify(saved)}`);
  const seq = saved.seq;
  return waitFor(`the agent's answer to ${JSON.stringify(command)}`, async () =>
    a2aLog(daemon, jobId).find((e) => e.seq === seq && e.op !== undefined),
  );
}

/**
 * A raw connection that speaks for a job (a `mute` job: its process only sleeps), after its report;
 * `agentItems` says whether it takes agent items.
 */
export async function speakFor(
  daemon: TestDaemon,
  jobId: string,
  report: Record<string, unknown> = { state: "working", status: "busy", agentItems: true },
): Promise<RawConnection & { token: string }> {
  const secret = await waitFor(`${jobId}'s token`, async () =>
    (await jobSecrets(daemon.stateDir)).find((s) => s.id === jobId),
  );
  const conn = await daemon.connect();
  const answer = await conn.request("report", { id: jobId, token: secret.token, report });
  if (!answer.ok) throw new Error(`report refused: ${JSON.stringify(answer)}`);
  return Object.assign(conn, { token: secret.token });
}
