import assert from "node:assert/strict";
import { after, before } from "node:test";
import { type ListeningServer, type ServerOptions, startServer } from "../../src/server/index.js";

/**
 * A real warren server listening on 127.0.0.1 at a free port; close it in an after() hook.
 * Every answer it sends is checked against the protocol's declarations: closing it fails if one
 * did not match.
 */
export async function startTestServer(options: ServerOptions = {}): Promise<ListeningServer> {
  const server = await startServer({ host: "127.0.0.1", port: 0 }, { checkResponses: true, ...options });
  return {
    ...server,
    close: async () => {
      await server.close();
      assert.deepEqual(server.responseProblems, [], "every answer matches its declaration");
    },
  };
}

export interface Reply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the server sent
  json: any;
}

export interface CallOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Sent as is, for malformed bodies. */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** One HTTP request to the server, as any client would send it. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const url = new URL(base + path);
  for (const [k, v] of Object.entries(options.query ?? {}))
    if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    json: text === "" ? undefined : JSON.parse(text),
  };
}

/** Creates a run with the given agents remote and claims each; returns the run id and leases. */
export async function runWithClaims(
  base: string,
  scenario: string,
  controlled: string[],
  body: Record<string, unknown> = {},
): Promise<{ runId: string; leases: Record<string, string> }> {
  const created = await call(base, "POST", "/v1/runs", {
    query: { scenario, seed: 3 },
    body: { controlled_agents: controlled, npc_policy: "solution", pace: null, ...body },
  });
  if (created.status !== 201)
    throw new Error(`create run: ${created.status} ${JSON.stringify(created.json)}`);
  const runId = created.json.run_id as string;
  const leases: Record<string, string> = {};
  for (const agent of controlled) {
    const claim = await call(base, "POST", `/v1/runs/${runId}/agents/${agent}/claim`);
    if (claim.status !== 200)
      throw new Error(`claim ${agent}: ${claim.status} ${JSON.stringify(claim.json)}`);
    leases[agent] = claim.json.lease;
  }
  return { runId, leases };
}

/**
 * A bridge_repair run in which engineer-1 has answered its first observation while courier-1
 * (remote too, claimed, silent) has not: nothing is outstanding for engineer-1, so its polls wait.
 */
export async function engineerAwaitingCourier(base: string): Promise<{
  runId: string;
  agent: string;
  lease: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the server sent
  envelope: any;
}> {
  const { runId, leases } = await runWithClaims(base, "bridge_repair", ["engineer-1", "courier-1"]);
  const agent = `/v1/runs/${runId}/agents/engineer-1`;
  const lease = leases["engineer-1"]!;
  const envelope = (await call(base, "GET", `${agent}/observations`, { query: { lease, wait: 5 } })).json;
  const answer = await call(base, "POST", `${agent}/commands`, {
    query: { lease },
    body: { command_id: "first", observation_id: envelope.observation_id, noop: true },
  });
  assert.equal(answer.json.status, "accepted");
  return { runId, agent, lease, envelope };
}

/** Polls `check` until it returns a value, failing after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A test server for the whole file: started before its tests, closed after them. */
export function serverForSuite(options: ServerOptions = {}): { server: ListeningServer; url: string } {
  const live = {} as { server: ListeningServer; url: string };
  before(async () => {
    live.server = await startTestServer(options);
    live.url = live.server.url;
  });
  after(() => live.server.close());
  return live;
}
