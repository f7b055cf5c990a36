/**
 * A fake model for the real Claude Code and Codex that plays bridge_repair's engineer through
 * `warren mcp`'s tools: roost's fake model servers (the ones its terminal-agent tests run these CLIs
 * on), scripted here to decide each move from the observation in the last tool result, as
 * engineerReply reads it. Both CLIs give the model a result's structured content as JSON (Codex
 * after a "Wall time…" preamble), so the observation is the envelope's text inside it.
 */
import type { Envelope } from "../../src/client/index.js";
import { readCommand } from "../../src/play/written-command.js";
import type { ToolSpec } from "../../src/protocol/index.js";
import { engineerReply } from "./play-table.js";

export interface ScriptedCall {
  name: string;
  input: Record<string, unknown>;
}
export type ToolScript = (turn: { tools: string[]; result: string | undefined }) => ScriptedCall | undefined;
export interface FakeModel {
  url: string;
  tasks: string[];
  close(): Promise<void>;
}

// roost's own fixtures (the CLIs are roost's test dependencies first), loaded by their paths.
const models = (await import(
  new URL("../../../roost/test/helpers/fake-models.ts", import.meta.url).href
)) as {
  startFakeAnthropic(script: ToolScript): Promise<FakeModel>;
  startFakeResponses(script: ToolScript): Promise<FakeModel>;
};
export const { startFakeAnthropic, startFakeResponses } = models;

/** The MCP tools' prefix both CLIs give the server named `warren`. */
const PREFIX = "mcp__warren__";

/** The observation a tool result carries, if it carries one. */
function observationIn(result: string): Envelope | undefined {
  const start = result.indexOf("{");
  if (start === -1) return undefined;
  try {
    return (JSON.parse(result.slice(start)) as { observation?: Envelope }).observation;
  } catch {
    return undefined;
  }
}

/**
 * The engineer's script: `waiting` while the warren tools are not listed yet (both CLIs connect
 * their MCP servers while the first request is made; after 20 waits the turn ends), observe at a turn's start and whenever a
 * result holds no observation, the engineer's move for each observation, and the turn's end once a
 * result says the run has ended. Each call made is kept in `calls`.
 */
export function engineerScript(catalog: ToolSpec[], waiting: ScriptedCall): ToolScript & { calls: string[] } {
  const calls: string[] = [];
  const script = (turn: { tools: string[]; result: string | undefined }): ScriptedCall | undefined => {
    const call = ((): ScriptedCall | undefined => {
      if (!turn.tools.includes(`${PREFIX}observe`)) {
        return calls.filter((name) => name === waiting.name).length < 20 ? waiting : undefined;
      }
      if (turn.result?.includes("The run has ended")) return undefined;
      const envelope = turn.result === undefined ? undefined : observationIn(turn.result);
      if (!envelope) return { name: `${PREFIX}observe`, input: {} };
      const read = readCommand(engineerReply(envelope.text), [], catalog);
      if (!("payload" in read)) throw new Error(read.error);
      const { payload } = read;
      if ("noop" in payload) return { name: `${PREFIX}noop`, input: {} };
      if ("sleep_ms" in payload) return { name: `${PREFIX}sleep`, input: { ms: payload.sleep_ms } };
      return { name: `${PREFIX}${payload.action}`, input: payload.args ?? {} };
    })();
    if (call) calls.push(call.name);
    return call;
  };
  return Object.assign(script, { calls });
}
