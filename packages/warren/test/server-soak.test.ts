import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { after, describe, it } from "node:test";
import { MAX_ARGS_JSON_CHARS, MAX_COMMAND_ID_CHARS } from "../src/protocol/index.js";
import { call, waitFor } from "./helpers/server.js";
import { warrenBin } from "./helpers/warren-process.js";

/** The server's heap: small enough that what the issue saw (+0.85 MB a command) kills it in ~100 commands. */
const HEAP_MB = 96;
/** Each run's byte budget: a flooded run ends over_budget at about this. */
const RUN_BYTES = 100_000;
const MiB = 1 << 20;

let server: ChildProcess | undefined;
let serverStderr = "";
after(() => {
  if (server?.exitCode === null) server.kill("SIGKILL");
});

function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"))!;
  return Number(line.split(/\s+/)[1]) * 1024;
}

async function startSmallServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      `--max-old-space-size=${HEAP_MB}`,
      warrenBin,
      "serve",
      "--port",
      "0",
      "--max-run-bytes",
      String(RUN_BYTES),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
  });
  // Its last words, should it die under the flood.
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    serverStderr = (serverStderr + chunk).slice(-4000);
  });
  const url = await waitFor("the server to listen", async () => /listening on (\S+)/.exec(out)?.[1]);
  return { url, child };
}

const json = { "content-type": "application/json" };
const huge = (n: number) => "x".repeat(n);

/** One hostile player: a remote engineer answering every observation with as much as it may. */
async function flood(url: string, hostileId: number): Promise<string> {
  const created = await call(url, "POST", "/v1/runs", {
    query: { scenario: "bridge_repair", seed: hostileId },
    body: { controlled_agents: ["engineer-1"] },
  });
  assert.equal(created.status, 201);
  const runId = created.json.run_id as string;
  const agent = `/v1/runs/${runId}/agents/engineer-1`;
  const lease = (await call(url, "POST", `${agent}/claim`)).json.lease as string;
  for (let n = 0; ; n++) {
    const envelope = await call(url, "GET", `${agent}/observations`, { query: { lease, wait: 5 } });
    if (envelope.status !== 200) break; // 410: the run ended
    const observation_id = envelope.json.observation_id;
    // What the issue sent: a 900 KB id, refused whole; then huge args, refused too (now and
    // then: each costs the loaded test machine more to send than the server to refuse).
    if (n % 5 === 0) {
      const bigId = await call(url, "POST", `${agent}/commands`, {
        query: { lease },
        body: { command_id: huge(900_000), observation_id, noop: true },
      });
      assert.equal(bigId.status, 422);
    }
    const bigArgs = await call(url, "POST", `${agent}/commands`, {
      query: { lease },
      body: {
        command_id: `big-${n}`,
        observation_id,
        action: "take",
        args: { item: huge(MAX_ARGS_JSON_CHARS * 10) },
      },
    });
    assert.equal(bigArgs.status, 422);
    // And what it may: ids at their limit, as many commands as it likes (a 1 ms sleep each, so
    // the run's sim time outlasts its budget), every one kept in the run's records.
    const accepted = await call(url, "POST", `${agent}/commands`, {
      query: { lease },
      body: {
        command_id: `${hostileId}-${n}-${huge(MAX_COMMAND_ID_CHARS)}`.slice(0, MAX_COMMAND_ID_CHARS),
        observation_id,
        sleep_ms: 1,
      },
    });
    if (accepted.status !== 200 || accepted.json.status !== "accepted") break;
  }
  return runId;
}

/** Creations with huge names and lists, each refused whole. */
async function hostileCreations(url: string): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const names = await call(url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair" },
      body: { controlled_agents: [huge(900_000)] },
    });
    assert.equal(names.status, 422);
    const policies = await call(url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair" },
      body: { npc_policy: Object.fromEntries(Array.from({ length: 20_000 }, (_, k) => [`a-${k}`, "noop"])) },
    });
    assert.equal(policies.status, 422);
    const tooBig = await call(url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair" },
      rawBody: JSON.stringify({ controlled_agents: [huge(2 * MiB)] }),
      headers: json,
    });
    assert.equal(tooBig.status, 413);
  }
}

describe("a hostile client against a server with a small heap", () => {
  it("lives, ends the flooded runs over_budget, finishes the others, and keeps its memory bounded", async () => {
    const { url, child } = await startSmallServer();
    server = child;
    const startRss = rssBytes(child.pid!);
    // Honest runs, paced so that they are live through the whole flood.
    const honest = await Promise.all(
      [4, 5, 6].map(async (seed) => {
        const created = await call(url, "POST", "/v1/runs", {
          query: { scenario: "signal_relay", seed },
          body: { pace: 1 },
        });
        assert.equal(created.status, 201);
        return created.json.run_id as string;
      }),
    );
    let peakRss = startRss;
    const sampler = setInterval(() => {
      if (child.exitCode === null) peakRss = Math.max(peakRss, rssBytes(child.pid!));
    }, 100);
    // A failure here must not leave the sampler keeping the test's process alive.
    const [flooded] = await Promise.all([
      Promise.all([1, 2, 3].map((id) => flood(url, id))),
      hostileCreations(url),
    ])
      .catch((err: Error) => {
        const died = child.exitCode !== null || child.signalCode !== null;
        throw died ? new Error(`${err.message}; the server died: ${serverStderr}`) : err;
      })
      .finally(() => clearInterval(sampler));
    assert.equal(child.exitCode, null, "the server lives");
    for (const runId of flooded) {
      const view = (await call(url, "GET", `/v1/runs/${runId}`)).json;
      assert.equal(view.status, "over_budget", `${runId}: ${view.status_reason}`);
    }
    for (const runId of honest) {
      const view = await waitFor(`${runId} to end`, async () => {
        const shown = (await call(url, "GET", `/v1/runs/${runId}`)).json;
        return shown.status === "running" ? undefined : shown;
      });
      assert.equal(view.status, "completed", `${runId} finished beside the flood`);
    }
    // Three flooded runs of 100 KB each, kept whole as the latest ended runs: a few MB, never the
    // hundreds the ids alone (900 KB a command) would have made.
    const grewMb = (peakRss - startRss) / MiB;
    process.stderr.write(
      `soak: RSS ${Math.round(startRss / MiB)} MB at the start, peak ${Math.round(peakRss / MiB)} MB\n`,
    );
    assert.ok(grewMb < 150, `RSS grew ${grewMb.toFixed(1)} MB`);
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  });
});
