import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DaemonClient } from "../../src/client/daemon-client.js";
import type { JobRow } from "../../src/protocol/rows.js";
import { type TestDaemon, waitFor } from "./daemon.js";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const sdk = fileURLToPath(new URL("../../sdk/python", import.meta.url));
export const python = () =>
  execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

/**
 * Profiles of a fixture agent on each client: `<name>-ts` runs `fixtures/<name>-agent.mjs` (the
 * TypeScript client as built, in plain node: through tsx each start costs three times the CPU),
 * `<name>-py` runs `fixtures/<name>-agent.py`.
 */
export function fixtureAgentProfiles<Name extends string>(name: Name) {
  const ts = {
    command: [process.execPath, fixture(`${name}-agent.mjs`)],
    task: "type",
    protocol: true,
  };
  const py = {
    command: [python(), fixture(`${name}-agent.py`)],
    task: "type",
    protocol: true,
    env: { PYTHONPATH: sdk },
  };
  return { [`${name}-ts`]: ts, [`${name}-py`]: py } as Record<`${Name}-ts`, typeof ts> &
    Record<`${Name}-py`, typeof py>;
}

/** What a fixture agent logged: a command's outcome (`op`) or an item it was sent (`kind`). */
export interface FixtureLogEntry {
  seq: number;
  pid: number;
  op?: string;
  ok?: boolean;
  code?: string;
  error?: string;
  // biome-ignore lint/suspicious/noExplicitAny: what the op answered
  result?: any;
  // biome-ignore lint/suspicious/noExplicitAny: the task as the agent got it
  task?: any;
  count?: number;
  kind?: string;
  from?: string;
  relation?: string;
  text?: string;
}

/** The entries a fixture agent wrote to `jobs/<jobId>/<file>`; none while it has written none. */
export function fixtureLog(daemon: TestDaemon, jobId: string, file: string): FixtureLogEntry[] {
  try {
    return readFileSync(join(daemon.stateDir, "jobs", jobId, file), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as FixtureLogEntry);
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

/** Waits until a job's agent has reported and holds its connection. */
export async function connected(hub: DaemonClient, id: string): Promise<void> {
  await waitFor(`${id} connected`, async () => {
    const row = await rowOf(hub, id);
    return row?.connected && row.reported && row.lifecycle === "running" ? true : undefined;
  });
}

/**
 * Has a fixture agent run a command (sent as a user reply) and returns what came of it, as it
 * logged it to `logFile`.
 */
export async function fixtureAgentDoes(
  daemon: TestDaemon,
  hub: DaemonClient,
  jobId: string,
  command: Record<string, unknown>,
  logFile: string,
): Promise<FixtureLogEntry> {
  const saved = await hub.call("reply", { id: jobId, text: JSON.stringify(command) });
  if (!("seq" in saved) || saved.seq === undefined)
    throw new Error(`reply not saved: ${JSON.stringify(saved)}`);
  const seq = saved.seq;
  return waitFor(`the agent's answer to ${JSON.stringify(command)}`, async () =>
    fixtureLog(daemon, jobId, logFile).find((e) => e.seq === seq && e.op !== undefined),
  );
}
