import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DaemonClient } from "../../src/client/daemon-client.js";
import type { JobRow } from "../../src/protocol/rows.js";
import { type TestDaemon, waitFor } from "./daemon.js";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const sdk = fileURLToPath(new URL("../../sdk/python", import.meta.url));
const python = () =>
  execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

/** Profiles of the board's fixture agents: one on each client. */
export function boardProfiles() {
  return {
    "board-ts": {
      command: [process.execPath, "--import", import.meta.resolve("tsx"), fixture("board-agent.ts")],
      task: "type",
      protocol: true,
    },
    "board-py": {
      command: [python(), fixture("board-agent.py")],
      task: "type",
      protocol: true,
      env: { PYTHONPATH: sdk },
    },
  };
}

/** What a board agent logged: a command's outcome (`op`) or a message it was sent (`kind`). */
export interface BoardLogEntry {
  seq: number;
  pid: number;
  op?: string;
  ok?: boolean;
  code?: string;
  error?: string;
  // biome-ignore lint/suspicious/noExplicitAny: the task as the agent got it
  task?: any;
  count?: number;
  kind?: string;
  from?: string;
  text?: string;
}

export function boardLog(daemon: TestDaemon, jobId: string): BoardLogEntry[] {
  try {
    return readFileSync(join(daemon.stateDir, "jobs", jobId, "board.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as BoardLogEntry);
  } catch {
    return [];
  }
}

/** A hub's connection for a test: ops, and the rows as they stand. */
export async function hubClient(daemon: TestDaemon): Promise<DaemonClient> {
  return DaemonClient.connect({ home: daemon.home });
}

export async function rowOf(hub: DaemonClient, id: string): Promise<JobRow | undefined> {
  return (await hub.call("list", {})).rows.find((r) => r.id === id);
}

/** Dispatches a board agent and waits until its report has made its connection. */
export async function startAgent(hub: DaemonClient, profile: string, name: string): Promise<string> {
  const { id } = await hub.call("dispatch", { profile, name });
  await waitFor(`${name} connected`, async () => {
    const row = await rowOf(hub, id);
    return row?.connected && row.reported && row.lifecycle === "running" ? true : undefined;
  });
  return id;
}

/** Has the agent run a board command on its own connection, and returns what came of it. */
export async function agentDoes(
  daemon: TestDaemon,
  hub: DaemonClient,
  jobId: string,
  command: Record<string, unknown>,
): Promise<BoardLogEntry> {
  const saved = await hub.call("reply", { id: jobId, text: JSON.stringify(command) });
  if (!("seq" in saved) || saved.seq === undefined)
    throw new Error(`reply not saved: ${JSON.stringify(saved)}`);
  const seq = saved.seq;
  return waitFor(`the agent's answer to ${JSON.stringify(command)}`, async () =>
    boardLog(daemon, jobId).find((e) => e.seq === seq && e.op !== undefined),
  );
}
