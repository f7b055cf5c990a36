/**
 * Fake models that play bridge_repair's engineer, each move decided from the observation's text as
 * engineerReply reads it: roost's fake model servers (the ones its tests run the real CLIs on),
 * loaded by their paths since they are outside this package. For Claude Code and Codex the moves
 * are `warren mcp`'s tools; both give the model a result's structured content as JSON (Codex after
 * a "Wall time…" preamble), so the observation is the envelope's text inside it. For pi they are
 * the tools warren's pi extension registers, and the observation is the message pi was given.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CommandPayload, Envelope } from "../../src/client/index.js";
import { readCommand } from "../../src/play/written-command.js";
import type { ToolSpec } from "../../src/protocol/index.js";
import { engineerReply } from "./play-table.js";

/** The engineer's next command for an observation's text. */
function engineerMove(text: string, catalog: ToolSpec[]): CommandPayload {
  const read = readCommand(engineerReply(text), [], catalog);
  if (!("payload" in read)) throw new Error(read.error);
  return read.payload;
}

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
      const payload = engineerMove(envelope.text, catalog);
      if ("noop" in payload) return { name: `${PREFIX}noop`, input: {} };
      if ("sleep_ms" in payload) return { name: `${PREFIX}sleep`, input: { ms: payload.sleep_ms } };
      return { name: `${PREFIX}${payload.action}`, input: payload.args ?? {} };
    })();
    if (call) calls.push(call.name);
    return call;
  };
  return Object.assign(script, { calls });
}

/** What pi's fake model (roost's OpenAI-compatible one) sees of a request, and may answer. */
export interface PiModelRequest {
  role: string;
  last: string;
  messages: unknown[];
}
export type PiModelAnswer = { text: string } | { tools: { name: string; args: Record<string, unknown> }[] };
export interface PiFakeModel {
  baseUrl: string;
  requests: PiModelRequest[];
  waitFor(
    match: (request: PiModelRequest) => boolean,
    from?: number,
    timeoutMs?: number,
  ): Promise<PiModelRequest>;
  close(): Promise<void>;
}
const piModels = (await import(
  new URL("../../../roost/test/fixtures/fake-openai.ts", import.meta.url).href
)) as {
  startFakeModel(script: (request: PiModelRequest) => Promise<PiModelAnswer>): Promise<PiFakeModel>;
  fakeModelsJson(baseUrl: string): string;
};
export const { startFakeModel: startPiModel } = piModels;

/**
 * A new pi agent folder (for PI_CODING_AGENT_DIR) whose default model is the fake one at
 * `baseUrl`, each of its models priced `cost` (per million tokens) when given.
 */
export function piAgentDir(baseUrl: string, cost?: Record<string, number>): string {
  const dir = mkdtempSync(join(tmpdir(), "warren-pi-agent-"));
  const models = JSON.parse(piModels.fakeModelsJson(baseUrl));
  if (cost) for (const m of models.providers.fake.models) m.cost = cost;
  writeFileSync(join(dir, "models.json"), JSON.stringify(models));
  writeFileSync(
    join(dir, "settings.json"),
    JSON.stringify({ defaultProvider: "fake", defaultModel: "fake-model", quietStartup: true }),
  );
  return dir;
}

/** Whether a request to pi's model carries an observation (the extension's messages start `[t=`). */
export function isObservation(request: PiModelRequest): boolean {
  return request.role === "user" && request.last.includes("[t=");
}

/** The engineer's move as a call of the tool warren's pi extension registers for it. */
export function piEngineerAnswer(request: PiModelRequest, catalog: ToolSpec[]): PiModelAnswer {
  const payload = engineerMove(request.last, catalog);
  if ("noop" in payload) return { tools: [{ name: "noop", args: {} }] };
  if ("sleep_ms" in payload) return { tools: [{ name: "sleep", args: { sleep_ms: payload.sleep_ms } }] };
  return { tools: [{ name: payload.action, args: payload.args ?? {} }] };
}
