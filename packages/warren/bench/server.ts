/**
 * The server's speed, in two figures:
 *  1. A command's round trip (POST …/commands, accepted, the engine advancing to the next wake)
 *     beside a minimal fastify echo route, over the same kind of keep-alive connection in the same
 *     run. Goal: within 1.3× of the echo (p50).
 *  2. 100 remote agents long-polling one run, every one woken at once each round: the time from
 *     the wake (when the envelope was issued) to the observation arriving at the agent, p50/p99.
 *     The agents run in a child process, so the server's event loop is its own. Goals: p99 under
 *     50 ms, and the server's CPU time a round at most twice the engine's alone.
 * It exits non-zero when a figure misses its goal on a machine not busier than its cores.
 *
 *   node --import tsx bench/server.ts
 */
import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { fileURLToPath } from "node:url";
import Fastify from "fastify";
import { Run, type ScenarioDefinition } from "../src/engine/index.js";
import { bundledScenarios, type ScenarioCatalog, startServer } from "../src/server/index.js";
import { endlessBridge } from "./endless-bridge.js";
import { type Goal, judgeGoals } from "./goals.js";
import { percentile } from "./percentile.js";

const ROUND_TRIPS = Number(process.env.BENCH_ROUND_TRIPS ?? 2000);
const AGENTS = 100;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);

/** The same valley with a hundred lookouts waiting at the depot. */
const crowdedValley: ScenarioDefinition = {
  ...endlessBridge,
  name: "crowded_valley",
  // Everyone sees only their own cell, as every lookout did when these figures were first taken.
  sightByRole: {},
  agents: Array.from({ length: AGENTS }, (_, i) => ({
    id: `lookout-${i + 1}`,
    name: `Lookout ${i + 1}`,
    role: "lookout",
    start: "depot",
  })),
};
const catalog: ScenarioCatalog = {
  find: (name) => [endlessBridge, crowdedValley].find((s) => s.name === name) ?? bundledScenarios.find(name),
  list: () => bundledScenarios.list(),
};

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

interface Sent {
  status: number;
  body: string;
}

function send(url: string, method: string, body?: unknown): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      url,
      {
        method,
        agent,
        headers:
          payload === undefined
            ? {}
            : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

const ms = (n: number): string => `${n.toFixed(3)} ms`;
const goals: Goal[] = [];

async function roundTrip(): Promise<void> {
  const server = await startServer({ port: 0 }, { scenarios: catalog });
  const echo = Fastify();
  echo.post("/echo", async (req) => req.body);
  await echo.listen({ host: "127.0.0.1", port: 0 });
  const echoAddress = echo.server.address();
  const echoUrl = `http://127.0.0.1:${typeof echoAddress === "object" && echoAddress ? echoAddress.port : 0}/echo`;

  const created = JSON.parse(
    (
      await send(`${server.url}/v1/runs?scenario=endless_bridge&seed=1`, "POST", {
        controlled_agents: ["engineer-1"],
        npc_policy: "none",
      })
    ).body,
  );
  const agentUrl = `${server.url}/v1/runs/${created.run_id}/agents/engineer-1`;
  const lease = JSON.parse((await send(`${agentUrl}/claim`, "POST")).body).lease as string;
  let after = -1;
  const commandTimes: number[] = [];
  const echoTimes: number[] = [];
  for (let i = 0; i < ROUND_TRIPS + 100; i++) {
    const envelope = JSON.parse(
      (await send(`${agentUrl}/observations?lease=${lease}&after=${after}&wait=5`, "GET")).body,
    );
    after = envelope.seq;
    const command = { command_id: `c-${i}`, observation_id: envelope.observation_id, sleep_ms: 1000 };
    // Alternate the two so both see the same machine at the same moment.
    const e0 = performance.now();
    await send(echoUrl, "POST", command);
    const e1 = performance.now();
    const receipt = await send(`${agentUrl}/commands?lease=${lease}`, "POST", command);
    const c1 = performance.now();
    if (JSON.parse(receipt.body).status !== "accepted") throw new Error(`not accepted: ${receipt.body}`);
    if (i >= 100) {
      echoTimes.push(e1 - e0);
      commandTimes.push(c1 - e1);
    }
  }
  const ratio = percentile(commandTimes, 50) / percentile(echoTimes, 50);
  console.log(`command round trip (${ROUND_TRIPS} accepted commands, after 100 warm-up):`);
  console.log(
    `  POST …/commands  p50 ${ms(percentile(commandTimes, 50))}  p99 ${ms(percentile(commandTimes, 99))}`,
  );
  console.log(
    `  fastify echo     p50 ${ms(percentile(echoTimes, 50))}  p99 ${ms(percentile(echoTimes, 99))}`,
  );
  console.log(`  ratio (p50) ${ratio.toFixed(2)}× (goal: within 1.3×)`);
  goals.push({
    name: "command round trip ÷ fastify echo (p50)",
    value: ratio,
    goal: 1.3,
    bound: "at most",
    unit: "×",
  });
  await echo.close();
  await server.close();
}

async function crowd(): Promise<void> {
  const server = await startServer({ port: 0 }, { scenarios: catalog });
  const agents = crowdedValley.agents.map((a) => a.id);
  const created = JSON.parse(
    (
      await send(`${server.url}/v1/runs?scenario=crowded_valley&seed=1`, "POST", {
        controlled_agents: agents,
        npc_policy: "none",
        deadline_s: 60,
      })
    ).body,
  );
  const leases: Record<string, string> = {};
  for (const id of agents) {
    leases[id] = JSON.parse(
      (await send(`${server.url}/v1/runs/${created.run_id}/agents/${id}/claim`, "POST")).body,
    ).lease;
  }
  const cpuBefore = process.cpuUsage();
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      fileURLToPath(import.meta.url),
      "--crowd",
      server.url,
      created.run_id,
      JSON.stringify(leases),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  await new Promise((resolve) => child.on("exit", resolve));
  const cpu = process.cpuUsage(cpuBefore);
  const samples = JSON.parse(out) as Sample[];
  // The engine issues a round's 100 envelopes one after another in one synchronous batch; the
  // second figure starts the clock when the round's last envelope was issued, leaving the server's part.
  const batchIssued = new Map<number, number>();
  for (const s of samples) batchIssued.set(s.simTimeMs, Math.max(batchIssued.get(s.simTimeMs) ?? 0, s.woke));
  const delays = samples.map((s) => s.arrived - s.woke);
  const afterBatch = samples.map((s) => s.arrived - batchIssued.get(s.simTimeMs)!);
  console.log(`${AGENTS} remote agents long-polling one run, ${ROUNDS} rounds of all waking at once:`);
  console.log(
    `  wake → observation delivered        p50 ${ms(percentile(delays, 50))}  p99 ${ms(percentile(delays, 99))}  (${delays.length} observations)`,
  );
  console.log(
    `  batch issued → observation delivered p50 ${ms(percentile(afterBatch, 50))}  p99 ${ms(percentile(afterBatch, 99))}`,
  );
  // CPU time does not depend on what else the machine runs: the server's whole cost of a round
  // (100 polls answered, 100 commands judged, the engine's step) beside the engine's alone.
  const serverPerRound = (cpu.user + cpu.system) / 1000 / ROUNDS;
  const enginePerRound = engineCpuPerRound();
  console.log(`  server CPU per round ${ms(serverPerRound)}; the engine alone ${ms(enginePerRound)}`);
  goals.push(
    {
      name: "wake → observation p99",
      value: percentile(delays, 99),
      goal: 50,
      bound: "at most",
      unit: " ms",
    },
    {
      name: "server CPU a round ÷ the engine's",
      value: serverPerRound / enginePerRound,
      goal: 2,
      bound: "at most",
      unit: "×",
    },
  );
  await server.close();
}

/** CPU time of one round of the crowd with the engine driven in-process, no HTTP. */
function engineCpuPerRound(): number {
  const ids = crowdedValley.agents.map((a) => a.id);
  const run = new Run({
    runId: "cpu",
    scenario: crowdedValley,
    seed: 1,
    controlledAgents: ids,
    npcPolicy: "none",
  });
  run.start();
  const before = process.cpuUsage();
  for (let round = 0; round < ROUNDS; round++) {
    for (const id of ids) {
      const envelope = run.outstanding(id)!;
      run.submit(id, {
        command_id: `${id}-${round}`,
        observation_id: envelope.observation_id,
        sleep_ms: 1000,
      });
    }
  }
  const used = process.cpuUsage(before);
  run.dispose();
  return (used.user + used.system) / 1000 / ROUNDS;
}

interface Sample {
  simTimeMs: number;
  woke: number;
  arrived: number;
}

/** The agents' side (child process): poll, note the delay since the wake, answer with a sleep. */
async function crowdAgents(base: string, runId: string, leases: Record<string, string>): Promise<void> {
  const samples: Sample[] = [];
  const deadlineMs = 60_000;
  await Promise.all(
    Object.entries(leases).map(async ([id, lease]) => {
      const url = `${base}/v1/runs/${runId}/agents/${id}`;
      let after = -1;
      for (let round = 0; round < ROUNDS; round++) {
        const polled = await send(`${url}/observations?lease=${lease}&after=${after}&wait=25`, "GET");
        const arrived = performance.timeOrigin + performance.now();
        const envelope = JSON.parse(polled.body);
        const woke = envelope.deadline_unix * 1000 - deadlineMs;
        if (round > 0) samples.push({ simTimeMs: envelope.sim_time_ms, woke, arrived });
        after = envelope.seq;
        await send(`${url}/commands?lease=${lease}`, "POST", {
          command_id: `${id}-${round}`,
          observation_id: envelope.observation_id,
          sleep_ms: 1000,
        });
      }
    }),
  );
  process.stdout.write(JSON.stringify(samples));
}

if (process.argv[2] === "--crowd") {
  await crowdAgents(process.argv[3]!, process.argv[4]!, JSON.parse(process.argv[5]!));
  agent.destroy();
} else {
  await roundTrip();
  await crowd();
  agent.destroy();
  judgeGoals(goals);
}
