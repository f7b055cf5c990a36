import type { DaemonClient } from "../../src/client/daemon-client.js";
import { jobSecrets, type RawConnection, type TestDaemon, waitFor } from "./daemon.js";
import {
  type FixtureLogEntry,
  fixtureAgentDoes,
  fixtureAgentProfiles,
  fixtureLog,
} from "./fixture-agents.js";

/** The agent-to-agent fixture agents, one on each client. */
export const a2aProfiles = () => fixtureAgentProfiles("a2a");

/** What an a2a agent logged: a command's outcome (`op`) or an agent item (`kind`). */
export type A2aLogEntry = FixtureLogEntry;

export const a2aLog = (daemon: TestDaemon, jobId: string) => fixtureLog(daemon, jobId, "a2a.jsonl");

/** Has the agent run a command (a user reply) and returns what came of it. */
export const a2aDoes = (
  daemon: TestDaemon,
  hub: DaemonClient,
  jobId: string,
  command: Record<string, unknown>,
): Promise<A2aLogEntry> => fixtureAgentDoes(daemon, hub, jobId, command, "a2a.jsonl");

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
