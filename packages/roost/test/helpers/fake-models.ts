/**
 * Fake model servers the real coding-agent CLIs talk to offline: Anthropic Messages (SSE) for Claude
 * Code, OpenAI Responses (SSE) for Codex, OpenAI chat completions (SSE) for pi. Scripted from the last user text: `RUN <command>` asks
 * to run a shell command (the CLI's permission dialog; pi asks no one), anything else is answered `ANSWER: <text>`
 * (`SLOW` in it: after a while). Claude Code's and Codex's may instead be played by a test's
 * `ToolScript`, which makes whatever tool calls it likes (an MCP server's, say).
 * Each task a CLI sends is kept in `tasks`, so a test can tell it reached the model once, and all
 * that passed in `said`, so a test can hold a transcript to it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * What passed between a CLI and the model in a turn, in order: the task it began with, each call the
 * model made and the result it was given back, and its answer's text (side calls left out).
 */
export type Said =
  | { kind: "user" | "assistant" | "tool-result"; text: string }
  | { kind: "tool-call"; tool: string; input: Record<string, unknown> };

export interface FakeModel {
  url: string;
  /** The user texts that started a turn (title and other side calls left out), in order. */
  tasks: string[];
  /** Each turn's conversation as the model was given it (its messages as JSON), in the order of `tasks`. */
  turns: string[];
  said: Said[];
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

/** A tool call a scripted model makes: the tool as the request listed it, and its input. */
export interface ScriptedCall {
  name: string;
  input: Record<string, unknown>;
}

/**
 * A model played by a test: given the tools a request offers (a Codex namespace's as
 * `NAMESPACE__TOOL`, the way Claude Code names MCP tools) and the text of the tool result the
 * request ends with (undefined when it starts a turn), the next call, or undefined to end the turn.
 */
export type ToolScript = (turn: { tools: string[]; result: string | undefined }) => ScriptedCall | undefined;

function readBody(req: IncomingMessage): Promise<Json> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Json);
      } catch {
        resolve({});
      }
    });
  });
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: Json) => (typeof part.text === "string" ? part.text : ""))
    .filter(Boolean)
    .join("\n");
}

/** The last user turn's text, and whether the turn is a tool's result (not a new task). */
function lastUser(messages: Json[]): { text: string; toolResult: boolean } {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    const isUser = m.role === "user" || m.type === "function_call_output";
    if (!isUser) continue;
    if (m.type === "function_call_output") return { text: "", toolResult: true };
    const content = m.content;
    const toolResult =
      Array.isArray(content) &&
      content.some((p: Json) => p.type === "tool_result" || p.type === "function_call_output");
    const text = textOf(content);
    // A tool's result may ride with a new task in one user turn: the task wins.
    return { text, toolResult: toolResult && !/^\s*(RUN|TASK) /m.test(text) };
  }
  return { text: "", toolResult: false };
}

/** The task a user text carries: the CLIs wrap it with context of their own. */
function taskIn(text: string): string {
  const lines = text.split("\n").map((l) => l.trim());
  const marked = lines.find((l) => /^(RUN |TASK )/.test(l));
  return marked ?? lines.filter(Boolean).at(-1) ?? "";
}

function sse(res: ServerResponse, events: [string, Json][]): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

/** What a turn's request brought: a tool's result, and the task when one rides with it (or alone). */
function heard(said: Said[], result: string | undefined, text: string, resultOnly: boolean): void {
  if (result !== undefined) said.push({ kind: "tool-result", text: result });
  if (result === undefined || !resultOnly) said.push({ kind: "user", text: taskIn(text) });
}

function listen(server: Server, tasks: string[], turns: string[], said: Said[]): Promise<FakeModel> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        tasks,
        turns,
        said,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A task with `SLOW` in it is answered after a while: the CLI shows its working line meanwhile. */
function slowIfAsked(task: string): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, /\bSLOW\b/.test(task) ? 2500 : 0));
}

let nextId = 1;
const newId = (prefix: string) => `${prefix}_${nextId++}`;

/** One streamed assistant message with one content block: its start, one delta, its end. */
function anthropicMessage(res: ServerResponse, block: Json, delta: Json, stopReason: string): void {
  sse(res, [
    [
      "message_start",
      {
        type: "message_start",
        message: {
          id: newId("msg"),
          type: "message",
          role: "assistant",
          model: "claude-fake",
          content: [],
          stop_reason: null,
          usage: { input_tokens: 10, output_tokens: 1 },
        },
      },
    ],
    ["content_block_start", { type: "content_block_start", index: 0, content_block: block }],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    [
      "message_delta",
      { type: "message_delta", delta: { stop_reason: stopReason }, usage: { output_tokens: 5 } },
    ],
    ["message_stop", { type: "message_stop" }],
  ]);
}

/** A tool result's text, whether the CLI gave it as a string or as parts. */
function resultText(content: unknown): string {
  return typeof content === "string" ? content : textOf(content);
}

/** The text of the tool result a Messages request ends with, if it ends with one. */
function anthropicResult(messages: Json[]): string | undefined {
  const content = messages.at(-1)?.content;
  if (!Array.isArray(content)) return undefined;
  const results = content.filter((part: Json) => part.type === "tool_result") as Json[];
  return results.length === 0 ? undefined : results.map((part) => resultText(part.content)).join("\n");
}

function anthropicText(res: ServerResponse, text: string): void {
  anthropicMessage(res, { type: "text", text: "" }, { type: "text_delta", text }, "end_turn");
}

function anthropicCall(res: ServerResponse, call: ScriptedCall): void {
  anthropicMessage(
    res,
    { type: "tool_use", id: newId("toolu"), name: call.name, input: {} },
    { type: "input_json_delta", partial_json: JSON.stringify(call.input) },
    "tool_use",
  );
}

/** Claude Code's model: `POST /v1/messages` (streamed), `HEAD /` for its reachability check. */
export function startFakeAnthropic(script?: ToolScript): Promise<FakeModel> {
  const tasks: string[] = [];
  const turns: string[] = [];
  const said: Said[] = [];
  const answer = (res: ServerResponse, text: string) => {
    said.push({ kind: "assistant", text });
    anthropicText(res, text);
  };
  const call = (res: ServerResponse, made: ScriptedCall) => {
    said.push({ kind: "tool-call", tool: made.name, input: made.input });
    anthropicCall(res, made);
  };
  const server = createServer(async (req, res) => {
    if (req.method !== "POST" || !req.url?.startsWith("/v1/messages")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(req.url?.includes("count_tokens") ? '{"input_tokens": 10}' : "{}");
      return;
    }
    const body = await readBody(req);
    const tools = Array.isArray(body.tools) ? body.tools : [];
    const { text, toolResult } = lastUser((body.messages as Json[]) ?? []);
    // A side call (the session title, a topic check) has no tools: it is not a turn.
    if (tools.length === 0) return anthropicText(res, JSON.stringify({ title: "Fake session title" }));
    const result = anthropicResult((body.messages as Json[]) ?? []);
    heard(said, result, text, toolResult || script !== undefined);
    if (script) {
      if (result === undefined) tasks.push(taskIn(text));
      const made = script({ tools: tools.map((t: Json) => String(t.name)), result });
      return made ? call(res, made) : answer(res, "ANSWER: done");
    }
    if (toolResult) return answer(res, "ANSWER: the command ran");
    const task = taskIn(text);
    tasks.push(task);
    turns.push(JSON.stringify(body.messages));
    await slowIfAsked(task);
    if (task.startsWith("RUN "))
      return call(res, { name: "Bash", input: { command: task.slice(4), description: "Run the command" } });
    answer(res, `ANSWER: ${task.replace(/^TASK /, "")}`);
  });
  return listen(server, tasks, turns, said);
}

function responsesEvents(output: Json[]): [string, Json][] {
  const id = newId("resp");
  const response = { id, object: "response", status: "in_progress", model: "fake-model", output: [] };
  const events: [string, Json][] = [["response.created", { type: "response.created", response }]];
  output.forEach((item, index) => {
    events.push([
      "response.output_item.added",
      { type: "response.output_item.added", output_index: index, item },
    ]);
    if (item.type === "message") {
      const text = ((item.content as Json[])[0] as Json).text as string;
      events.push([
        "response.output_text.delta",
        {
          type: "response.output_text.delta",
          item_id: item.id,
          output_index: index,
          content_index: 0,
          delta: text,
        },
      ]);
    }
    events.push([
      "response.output_item.done",
      { type: "response.output_item.done", output_index: index, item },
    ]);
  });
  events.push([
    "response.completed",
    {
      type: "response.completed",
      response: {
        ...response,
        status: "completed",
        output,
        usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
      },
    },
  ]);
  return events;
}

/** The tools a Responses request offers, a namespace's (Codex's MCP servers) as `NAMESPACE__TOOL`. */
function responsesTools(tools: Json[]): Map<string, { name: string; namespace?: string }> {
  const named = new Map<string, { name: string; namespace?: string }>();
  for (const tool of tools) {
    if (tool.type === "namespace" && Array.isArray(tool.tools)) {
      for (const inner of tool.tools as Json[]) {
        const name = String(inner.name);
        named.set(`${tool.name}__${name}`, { name, namespace: String(tool.name) });
      }
    } else if (typeof tool.name === "string") named.set(tool.name, { name: tool.name });
  }
  return named;
}

/** The text of the tool result a Responses request ends with, if it ends with one. */
function responsesResult(input: Json[]): string | undefined {
  const last = input.at(-1);
  return last?.type === "function_call_output" ? resultText(last.output) : undefined;
}

/** Codex's model: `POST /v1/responses` (streamed). */
export function startFakeResponses(script?: ToolScript): Promise<FakeModel> {
  const tasks: string[] = [];
  const turns: string[] = [];
  const said: Said[] = [];
  const server = createServer(async (req, res) => {
    if (req.method !== "POST" || !req.url?.includes("/responses")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"models": [], "data": []}');
      return;
    }
    const body = await readBody(req);
    const input = Array.isArray(body.input) ? (body.input as Json[]) : [];
    const tools = Array.isArray(body.tools) ? body.tools : [];
    const message = (text: string): Json => ({
      type: "message",
      id: newId("msg"),
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text, annotations: [] }],
    });
    const answer = (text: string) => {
      said.push({ kind: "assistant", text });
      sse(res, responsesEvents([message(text)]));
    };
    const call = (made: ScriptedCall, tool: { name: string; namespace?: string }) => {
      said.push({ kind: "tool-call", tool: made.name, input: made.input });
      const item = {
        type: "function_call",
        id: newId("fc"),
        call_id: newId("call"),
        ...tool,
        arguments: JSON.stringify(made.input),
        status: "completed",
      };
      sse(res, responsesEvents([item]));
    };
    const { text, toolResult } = lastUser(input);
    if (tools.length === 0) return sse(res, responsesEvents([message('{"title": "Fake session title"}')]));
    const result = responsesResult(input);
    heard(said, result, text, toolResult || script !== undefined);
    if (script) {
      const named = responsesTools(tools as Json[]);
      if (result === undefined) tasks.push(taskIn(text));
      const made = script({ tools: [...named.keys()], result });
      return made ? call(made, named.get(made.name) ?? { name: made.name }) : answer("ANSWER: done");
    }
    if (toolResult) return answer("ANSWER: the command ran");
    const task = taskIn(text);
    tasks.push(task);
    turns.push(JSON.stringify(input));
    await slowIfAsked(task);
    if (task.startsWith("RUN ")) {
      const input = {
        cmd: task.slice(4),
        sandbox_permissions: "require_escalated",
        justification: "Write the file the task asks for",
      };
      return call({ name: "exec_command", input }, { name: "exec_command" });
    }
    answer(`ANSWER: ${task.replace(/^TASK /, "")}`);
  });
  return listen(server, tasks, turns, said);
}

/** pi's model: `POST /v1/chat/completions` (streamed chunks, then `[DONE]`). */
export function startFakeChatCompletions(): Promise<FakeModel> {
  const tasks: string[] = [];
  const said: Said[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const messages = (body.messages as Json[]) ?? [];
    // A tool's result (its own message) ends the turn the tool call began.
    const toolResult = messages.at(-1)?.role === "tool";
    const task = toolResult ? "" : taskIn(lastUser(messages).text);
    if (!toolResult) tasks.push(task);
    heard(said, toolResult ? textOf(messages.at(-1)?.content) : undefined, task, true);
    await slowIfAsked(task);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const chunk = (choices: Json[], extra: Json = {}) =>
      res.write(
        `data: ${JSON.stringify({ id: "chat-1", object: "chat.completion.chunk", created: 1, model: "fake-model", choices, ...extra })}\n\n`,
      );
    chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]);
    if (task.startsWith("RUN ")) {
      // pi runs its tools without asking: the command runs at once, through its own bash tool.
      const call = { name: "bash", arguments: JSON.stringify({ command: task.slice(4) }) };
      said.push({ kind: "tool-call", tool: "bash", input: { command: task.slice(4) } });
      chunk([
        { index: 0, delta: { tool_calls: [{ index: 0, id: "call-1", type: "function", function: call }] } },
      ]);
      chunk([{ index: 0, delta: {}, finish_reason: "tool_calls" }]);
    } else {
      const answer = `ANSWER: ${toolResult ? "ran it" : task.replace(/^TASK /, "")}`;
      said.push({ kind: "assistant", text: answer });
      chunk([{ index: 0, delta: { content: answer }, finish_reason: null }]);
      chunk([{ index: 0, delta: {}, finish_reason: "stop" }]);
    }
    chunk([], { usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
    res.end("data: [DONE]\n\n");
  });
  return listen(server, tasks, [], said);
}
