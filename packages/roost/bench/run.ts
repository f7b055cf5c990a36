// `npm run bench` (add `-- --quick` for a run of a minute or two): the daemon's report→response
// round trip and reply→deliver latency at 1, 10, 100 and 1000 connected agents, side by side with a
// minimal JSON-lines echo server on a unix socket (the floor; for replies also the durable floor, the
// echo committing each reply to SQLite as the store does), then 1000 agents reporting once a second,
// and the daemon's memory with 1000 jobs. `--check` (or BENCH_CHECK=1) exits non-zero when a figure
// misses its goal: each ratio within 1.5x its floor (reply→deliver against the durable one), the
// steady reports' p99 under 20 ms, the daemon under 200 MB.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { statePaths } from "../src/home/paths.js";
import { cleanUp } from "./clean-up.js";
import { jobTokens } from "./job-tokens.js";
import { LinesClient } from "./lines-client.js";
import { type Figures, figures, fmt, nowMs } from "./stats.js";

const quick = process.argv.includes("--quick") || process.env.BENCH_QUICK === "1";
const check = process.argv.includes("--check") || process.env.BENCH_CHECK === "1";
/** The goals a figure missed, said at the end; with `--check` the bench then exits non-zero. */
const missed: string[] = [];
const RATIO_GOAL = 1.5;
const LEVELS = [1, 10, 100, 1000];
const JOBS = 1000;
const SAMPLES = quick ? 400 : 3000;
/** Round trips played before the first level, by each side. */
const WARM_UP = 4000;
const STEADY_SECONDS = quick ? 5 : 20;
const CLI = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));
const ECHO = fileURLToPath(new URL("./echo-server.ts", import.meta.url));

const children: ChildProcess[] = [];

function startProcess(args: string[], env: NodeJS.ProcessEnv): void {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(child);
}

interface Agent {
  conn: LinesClient;
  id: string;
  token: string;
  delivered: (() => void) | null;
}

async function connectAgent(socket: string, id: string, token: string): Promise<Agent> {
  const conn = await LinesClient.open(socket);
  const agent: Agent = { conn, id, token, delivered: null };
  conn.onEvent = (event) => {
    if (event.event !== "deliver") return;
    // Delivered once the agent has it; the ack it then sends is not part of the trip.
    agent.delivered?.();
    void conn.request("ack", { id, token, seq: event.seq });
  };
  await conn.request("hello", {
    protocol: 1,
    agent: { name: "bench", version: "1" },
    capabilities: ["report", "replies"],
  });
  const r = await conn.request("report", { id, token, report: { state: "working", summary: "up" } });
  if (!r.ok) throw new Error(`report refused: ${r.error}`);
  return agent;
}

interface EchoAgent {
  conn: LinesClient;
  name: string;
  delivered: (() => void) | null;
}

async function connectEcho(socket: string, name: string): Promise<EchoAgent> {
  const conn = await LinesClient.open(socket);
  const agent: EchoAgent = { conn, name, delivered: null };
  conn.onEvent = () => agent.delivered?.();
  await conn.request("register", { name });
  return agent;
}

async function roundTrips(n: number, count: number, send: (k: number) => Promise<unknown>): Promise<Figures> {
  const samples: number[] = [];
  for (let s = 0; s < count; s++) {
    const t0 = nowMs();
    await send(s % n);
    samples.push(nowMs() - t0);
  }
  return figures(samples);
}

function waitDeliver(agent: { delivered: (() => void) | null }): Promise<void> {
  return new Promise((resolve) => {
    agent.delivered = () => {
      agent.delivered = null;
      resolve();
    };
  });
}

/** `n` senders, each sending once a second, spread over the second, for STEADY_SECONDS. */
async function everySecond(n: number, send: (k: number) => Promise<unknown>): Promise<Figures> {
  const samples: number[] = [];
  const timers: NodeJS.Timeout[] = [];
  const tick = (k: number) => {
    const t = nowMs();
    void send(k).then(() => samples.push(nowMs() - t));
  };
  for (let k = 0; k < n; k++) {
    timers.push(
      setTimeout(
        () => {
          tick(k);
          timers.push(setInterval(() => tick(k), 1000));
        },
        (k * 1000) / n,
      ),
    );
  }
  await new Promise((r) => setTimeout(r, STEADY_SECONDS * 1000 + 200));
  for (const t of timers) clearInterval(t);
  return figures(samples);
}

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "roost-bench-"));
  const paths = statePaths(home);
  writeFileSync(
    join(home, "roost.json"),
    JSON.stringify({ agentProfiles: { bench: { command: ["sleep", "600"], task: "type", protocol: true } } }),
  );
  const echoSocket = join(home, "echo.sock");
  const durableSocket = join(home, "durable-echo.sock");
  try {
    const daemonExited = startProcess([CLI, "daemon"], { ...process.env, ROOST_HOME: home });
    void startProcess([ECHO, echoSocket], process.env);
    void startProcess([ECHO, durableSocket, "--durable", join(home, "durable-floor.db")], process.env);
    const hub = await LinesClient.openWhenReady(paths.socket);
    const echoHub = await LinesClient.openWhenReady(echoSocket);
    const durableHub = await LinesClient.openWhenReady(durableSocket);

    console.log(
      `roost bench (${quick ? "quick" : "full"}): ${SAMPLES} samples a level, node ${process.version}`,
    );
    const t0 = nowMs();
    for (let i = 0; i < JOBS; i += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, JOBS - i) }, async () => {
          const r = await hub.request("dispatch", { profile: "bench" });
          if (!r.ok) throw new Error(`dispatch refused: ${r.error}`);
        }),
      );
    }
    console.log(
      `dispatched ${JOBS} jobs (sleep 600 under a pty each) in ${((nowMs() - t0) / 1000).toFixed(1)} s`,
    );
    // The store keeps only each token's hash: the tokens are read from the jobs' environments.
    const secrets = await jobTokens(hub);

    const agents: Agent[] = [];
    const echoes: EchoAgent[] = [];
    const durables: EchoAgent[] = [];
    /** report→response on the daemon, then on the floor, over `n` agents. */
    const reportTrips = async (n: number, samples = SAMPLES): Promise<Figures[]> => [
      await roundTrips(n, samples, (k) =>
        agents[k]!.conn.request("report", {
          id: agents[k]!.id,
          token: agents[k]!.token,
          report: { state: "working", summary: `step ${k}` },
        }),
      ),
      await roundTrips(n, samples, (k) =>
        echoes[k]!.conn.request("report", {
          id: "x",
          token: "y",
          report: { state: "working", summary: `step ${k}` },
        }),
      ),
    ];
    /** reply→deliver on the daemon, then on the floor, then on the durable floor, over `n` agents. */
    const deliverTrips = async (n: number, samples = SAMPLES): Promise<Figures[]> => [
      await roundTrips(n, samples, async (k) => {
        const got = waitDeliver(agents[k]!);
        await hub.request("reply", { id: agents[k]!.id, text: `reply ${k}` });
        await got;
      }),
      await roundTrips(n, samples, async (k) => {
        const got = waitDeliver(echoes[k]!);
        await echoHub.request("reply", { to: echoes[k]!.name, text: `reply ${k}` });
        await got;
      }),
      await roundTrips(n, samples, async (k) => {
        const got = waitDeliver(durables[k]!);
        await durableHub.request("reply", { to: durables[k]!.name, text: `reply ${k}` });
        await got;
      }),
    ];
    console.log(
      "\nagents | report→response p50 / p99 ms (floor) | ratio p50 | reply→deliver p50 / p99 ms (floor) | ratio p50 | durable floor p50 / p99 | ratio p50 (goal <= 1.5x)",
    );
    const results: string[] = [];
    // Both sides play the ops a while first, so that the levels measure compiled code, not V8 at work.
    agents.push(await connectAgent(paths.socket, secrets[0]!.id, secrets[0]!.token));
    echoes.push(await connectEcho(echoSocket, "a0"));
    durables.push(await connectEcho(durableSocket, "a0"));
    await reportTrips(1, WARM_UP);
    await deliverTrips(1, WARM_UP / 4);
    for (const n of LEVELS) {
      while (agents.length < n) {
        const s = secrets[agents.length]!;
        agents.push(await connectAgent(paths.socket, s.id, s.token));
        echoes.push(await connectEcho(echoSocket, `a${echoes.length}`));
        durables.push(await connectEcho(durableSocket, `a${durables.length}`));
      }
      const [report, reportFloor] = await reportTrips(n);
      const [deliver, deliverFloor, durableFloor] = await deliverTrips(n);
      const line =
        `${String(n).padStart(6)} | ${fmt(report.p50)} / ${fmt(report.p99)} (${fmt(reportFloor.p50)} / ${fmt(reportFloor.p99)})` +
        ` | ${(report.p50 / reportFloor.p50).toFixed(2)}x | ${fmt(deliver.p50)} / ${fmt(deliver.p99)}` +
        ` (${fmt(deliverFloor.p50)} / ${fmt(deliverFloor.p99)}) | ${(deliver.p50 / deliverFloor.p50).toFixed(2)}x` +
        ` | ${fmt(durableFloor!.p50)} / ${fmt(durableFloor!.p99)} | ${(deliver.p50 / durableFloor!.p50).toFixed(2)}x`;
      console.log(line);
      results.push(line);
      if (report.p50 / reportFloor.p50 > RATIO_GOAL)
        missed.push(`report→response at ${n} agents: ${(report.p50 / reportFloor.p50).toFixed(2)}x the echo`);
      if (deliver.p50 / durableFloor!.p50 > RATIO_GOAL)
        missed.push(
          `reply→deliver at ${n} agents: ${(deliver.p50 / durableFloor!.p50).toFixed(2)}x the durable floor`,
        );
    }

    // Every agent reports once a second, spread over the second; the same load on the floor.
    const steadyFigures = await everySecond(agents.length, (k) =>
      agents[k]!.conn.request("report", {
        id: agents[k]!.id,
        token: agents[k]!.token,
        report: { state: "working", summary: `tick ${k}` },
      }),
    );
    const steadyFloor = await everySecond(echoes.length, (k) =>
      echoes[k]!.conn.request("report", {
        id: "x",
        token: "y",
        report: { state: "working", summary: `tick ${k}` },
      }),
    );
    console.log(
      `\n${agents.length} agents reporting once a second for ${STEADY_SECONDS} s: ${steadyFigures.n} reports, ` +
        `p50 ${fmt(steadyFigures.p50)} ms, p99 ${fmt(steadyFigures.p99)} ms (goal: p99 < 20 ms); ` +
        `the floor under the same load: p50 ${fmt(steadyFloor.p50)} ms, p99 ${fmt(steadyFloor.p99)} ms`,
    );
    if (steadyFigures.p99 >= 20) missed.push(`reports once a second: p99 ${fmt(steadyFigures.p99)} ms`);
    const stats = await hub.request("stats", {});
    console.log(
      `daemon memory with ${stats.result.jobs} jobs and ${stats.result.connections} connections: ` +
        `${(stats.result.rss / 1024 / 1024).toFixed(0)} MB RSS (goal: < 200 MB)`,
    );
    if (stats.result.rss >= 200 * 1024 * 1024) missed.push("daemon memory with 1000 jobs");
    for (const a of agents) a.conn.close();
    for (const e of [...echoes, ...durables]) e.conn.close();
    // The daemon ends its jobs and the process host before it exits: wait for that.
    await hub.request("shutdown", { all: true });
    await Promise.race([daemonExited, new Promise((r) => setTimeout(r, 120_000))]);
    hub.close();
    echoHub.close();
    durableHub.close();
  } finally {
    await cleanUp(children, home);
  }
}

await main();
console.log(
  missed.length === 0
    ? `\nevery goal met (goals: ratios <= ${RATIO_GOAL}x, p99 < 20 ms, < 200 MB)`
    : `\ngoals missed (${RATIO_GOAL}x, 20 ms, 200 MB): ${missed.join("; ")}`,
);
if (check && missed.length > 0) process.exitCode = 1;
// Terminal agents: rows read from screens, beside tmux capture-pane polling.
if (!(await (await import("./terminal.js")).benchTerminal()) && check) process.exitCode = 1;
