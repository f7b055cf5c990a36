import type { DaemonClient } from "../../src/client/daemon-client.js";
import type { TestDaemon } from "./daemon.js";
import {
  connected,
  type FixtureLogEntry,
  fixtureAgentDoes,
  fixtureAgentProfiles,
  fixtureLog,
} from "./fixture-agents.js";

/** Profiles of the board's fixture agents: one on each client. */
export const boardProfiles = () => fixtureAgentProfiles("board");

/** What a board agent logged: a command's outcome (`op`) or a message it was sent (`kind`). */
export type BoardLogEntry = FixtureLogEntry;

export const boardLog = (daemon: TestDaemon, jobId: string) => fixtureLog(daemon, jobId, "board.jsonl");

/** Dispatches a board agent and waits until its report has made its connection. */
export async function startAgent(hub: DaemonClient, profile: string, name: string): Promise<string> {
  const { id } = await hub.call("dispatch", { profile, name });
  await connected(hub, id);
  return id;
}

/** Has the agent run a board command on its own connection, and returns what came of it. */
export const agentDoes = (
  daemon: TestDaemon,
  hub: DaemonClient,
  jobId: string,
  command: Record<string, unknown>,
): Promise<BoardLogEntry> => fixtureAgentDoes(daemon, hub, jobId, command, "board.jsonl");
