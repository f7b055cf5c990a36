/**
 * The server's speed, in two figures:
 *  1. A command's round trip (POST …/commands, accepted; the run steps to the next wake once the
 *     receipt is out) beside a minimal fastify echo route, over the same kind of keep-alive
 *     connection in the same run, from a client in a process of its own. Goal: within 1.3× of the
 *     echo (p50). The engine's part of each command (its submit, timed where the server calls it)
 *     is printed apart, and the ratio of what is left.
 *  2. 100 remote agents long-polling one run, every one woken at once each round: the time from
 *     the wake (when the envelope was issued) to the observation arriving at the agent, p50/p99,
 *     and the server's CPU time a round, over 40 rounds after 10 warm-up rounds. The agents run in
 *     a child process, so the server's event loop is its own. Goals: p99 under 50 ms, and the
 *     server's CPU a round at most twice the engine's alone (measured in-process, no HTTP). The
 *     same agents then play a bare fastify server answering the same requests with nothing
 *     behind them (long-poll-floor.ts): the floor both figures are printed beside.
 * It exits non-zero when a figure misses its goal on a machine not busier than its cores.
 *
 *   node --import tsx bench/server.ts [--cpu-prof DIR]
 *
 * `--cpu-prof DIR` profiles this process (the servers') over what each part measures, apart:
 * DIR/round-trip.cpuprofile, and the rounds after the warm-up in DIR/long-poll.cpuprofile
 * (warren's server) and DIR/long-poll-floor.cpuprofile (see bench/profile-summary.ts).
 */
import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { fileURLToPath } from "node:url";
import Fastify from "fastify";
import { Run, type ScenarioDefinition } from "../src/engine/index.js";
import type { ClaimResponse, Envelope, Receipt, RunView } from "../src/protocol/index.js";
import { bundledScenarios, type ScenarioCatalog, startServer } from "../src/server/index.js";
import { startCpuProfile } from "./cpu-profile.js";
import { endlessBridge } from "./endless-bridge.js";
import { type Goal, judgeGoals } from "./goals.js";
import { startLongPollFloor } from "./long-poll-floor.js";
import { percentile } from "./percentile.js";

const ROUND_TRIPS = Number(process.env.BENCH_ROUND_TRIPS ?? 2000);
const AGENTS = 100;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
/** Rounds played first and left out of the figures: a round's cost in a server that has been running. */
const WARM_UP_ROUNDS = 10;
const DEADLINE_MS = 60_000;

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

/** The body of a 200 (201 for a creation), parsed; an error ends the benchmark, never timed as an answer. */
function answer<T>(sent: Sent, what: string): T {
  if (sent.status !== 200 && sent.status !== 201)
    throw new Error(`${what}: HTTP ${sent.status} ${sent.body}`);
  return JSON.parse(sent.body) as T;
}

const ms = (n: number): string => `${n.toFixed(3)} ms`;
const tails = (values: number[]): string =>
  `p50 ${ms(percentile(values, 50))}  p99 ${ms(percentile(values, 99))}`;
const goals: Goal[] = [];
const profileDir = process.argv[2] === "--cpu-prof" ? process.argv[3] : undefined;

async function roundTrip(): Promise<void> {
  const server = await startServer({ port: 0 }, { scenarios: catalog });
  const echo = Fastify();
  echo.post("/echo", async (req) => req.body);
  await echo.listen({ host: "127.0.0.1", port: 0 });
  const echoAddress = echo.server.address();
  const echoUrl = `http://127.0.0.1:${typeof echoAddress === "object" && echoAddress ? echoAddress.port : 0}/echo`;

  const created = answer<RunView>(
    await send(`${server.url}/v1/runs?scenario=endless_bridge&seed=1`, "POST", {
      controlled_agents: ["engineer-1"],
      npc_policy: "none",
    }),
    "create",
  );
  const agentUrl = `${server.url}/v1/runs/${created.run_id}/agents/engineer-1`;
  const lease = answer<ClaimResponse>(await send(`${agentUrl}/claim`, "POST"), "claim").lease;
  // The engine's part of each command (judging it; the step to the agent's next wake follows the
  // receipt), timed where the server calls it: the rest of the round trip beyond the echo is the
  // server's.
  const run = server.registry.get(created.run_id).run;
  const submit = run.submit.bind(run);
  const engineMsList: number[] = [];
  run.submit = (agentId, body, options) => {
    const t0 = performance.now();
    const receipt = submit(agentId, body, options);
    engineMsList.push(performance.now() - t0);
    return receipt;
  };
  // The client plays from a process of its own, as an agent does: a step the server takes after the
  // receipt is out does not hold the receipt up in a process that is not the server's.
  const stopProfile = await startCpuProfile(profileDir, "round-trip");
  const { commandTimes, echoTimes } = await playRoundTrips(agentUrl, lease, echoUrl);
  // One submit a command: the last ones are the timed commands'.
  const engineTimes = engineMsList.slice(-commandTimes.length);
  await stopProfile();
  const echoP50 = percentile(echoTimes, 50);
  const ratio = percentile(commandTimes, 50) / echoP50;
  const serverTimes = commandTimes.map((t, i) => t - engineTimes[i]!);
  console.log(`command round trip (${ROUND_TRIPS} accepted commands, after 100 warm-up):`);
  console.log(`  POST …/commands  ${tails(commandTimes)}`);
  console.log(`    the engine's step in it  ${tails(engineTimes)}`);
  console.log(`    the rest (HTTP, server)  ${tails(serverTimes)}`);
  console.log(`  fastify echo     ${tails(echoTimes)}`);
  console.log(
    `  ratio (p50) ${ratio.toFixed(2)}× (goal: within 1.3×); without the engine's step ${(percentile(serverTimes, 50) / echoP50).toFixed(2)}×`,
  );
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

/**
 * The round trips, from a process of its own: each command's and each echo's time after the
 * warm-up, alternated so both see the same machine at the same moment.
 */
async function playRoundTrips(
  agentUrl: string,
  lease: string,
  echoUrl: string,
): Promise<{ commandTimes: number[]; echoTimes: number[] }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", fileURLToPath(import.meta.url), "--round-trips", agentUrl, lease, echoUrl],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  child.stdout!.on("data", (chunk) => (out += chunk));
  const code = await new Promise((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`the round-trip client exited with ${code}`);
  return JSON.parse(out) as { commandTimes: number[]; echoTimes: number[] };
}

async function roundTripClient(agentUrl: string, lease: string, echoUrl: string): Promise<void> {
  let after = -1;
  const commandTimes: number[] = [];
  const echoTimes: number[] = [];
  for (let i = 0; i < ROUND_TRIPS + 100; i++) {
    const envelope = answer<Envelope>(
      await send(`${agentUrl}/observations?lease=${lease}&after=${after}&wait=5`, "GET"),
      "poll",
    );
    after = envelope.seq;
    const command = { command_id: `c-${i}`, observation_id: envelope.observation_id, sleep_ms: 1000 };
    const e0 = performance.now();
    await send(echoUrl, "POST", command);
    const e1 = performance.now();
    const receipt = await send(`${agentUrl}/commands?lease=${lease}`, "POST", command);
    const c1 = performance.now();
    if (answer<Receipt>(receipt, "command").status !== "accepted")
      throw new Error(`not accepted: ${receipt.body}`);
    if (i >= 100) {
      echoTimes.push(e1 - e0);
      commandTimes.push(c1 - e1);
    }
  }
  process.stdout.write(JSON.stringify({ commandTimes, echoTimes }));
}

/** What the agents' process measured: delays after the warm-up rounds, and during them apart. */
interface CrowdPlay {
  samples: Sample[];
  warmUp: Sample[];
  /** The server process's CPU ms a round after the warm-up (this process: the server runs in it). */
  cpuPerRound: number;
}

/** Plays the crowd against a server at `base` from a process of its own, timing this process's CPU. */
async function playCrowd(
  base: string,
  runId: string,
  leases: Record<string, string>,
  profileName: string,
): Promise<CrowdPlay> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", fileURLToPath(import.meta.url), "--crowd", base, runId, JSON.stringify(leases)],
    { stdio: ["ignore", "pipe", "inherit", "ipc"] },
  );
  let out = "";
  child.stdout!.on("data", (chunk) => (out += chunk));
  // The clock starts when the agents say the warm-up rounds are over (the code paths compiled,
  // the heap grown): the figure is a round's cost in a server that has been running.
  let cpuWarm: NodeJS.CpuUsage | undefined;
  let stopProfile = Promise.resolve(async () => {});
  child.once("message", () => {
    cpuWarm = process.cpuUsage();
    stopProfile = startCpuProfile(profileDir, profileName);
  });
  const exitCode = await new Promise((resolve) => child.on("exit", resolve));
  if (exitCode !== 0 || !cpuWarm) throw new Error(`the agents' process failed (exit ${exitCode})`);
  const cpu = process.cpuUsage(cpuWarm);
  await (await stopProfile)();
  const played = JSON.parse(out) as { samples: Sample[]; warmUp: Sample[] };
  return { ...played, cpuPerRound: (cpu.user + cpu.system) / 1000 / ROUNDS };
}

/** Wake → delivered for each sample, and from the round's last envelope issued → delivered. */
function delaysOf(samples: Sample[]): { delays: number[]; afterBatch: number[] } {
  // The engine issues a round's 100 envelopes one after another in one synchronous batch; the
  // second figure starts the clock when the round's last envelope was issued, leaving the server's part.
  const batchIssued = new Map<number, number>();
  for (const s of samples) batchIssued.set(s.simTimeMs, Math.max(batchIssued.get(s.simTimeMs) ?? 0, s.woke));
  return {
    delays: samples.map((s) => s.arrived - s.woke),
    afterBatch: samples.map((s) => s.arrived - batchIssued.get(s.simTimeMs)!),
  };
}

async function crowd(): Promise<void> {
  const server = await startServer({ port: 0 }, { scenarios: catalog });
  const agents = crowdedValley.agents.map((a) => a.id);
  const created = answer<RunView>(
    await send(`${server.url}/v1/runs?scenario=crowded_valley&seed=1`, "POST", {
      controlled_agents: agents,
      npc_policy: "none",
      deadline_s: DEADLINE_MS / 1000,
    }),
    "create",
  );
  const leases: Record<string, string> = {};
  for (const id of agents) {
    leases[id] = answer<ClaimResponse>(
      await send(`${server.url}/v1/runs/${created.run_id}/agents/${id}/claim`, "POST"),
      "claim",
    ).lease;
  }
  const warren = await playCrowd(server.url, created.run_id, leases, "long-poll");
  await server.close();
  const engine = engineAlone();
  const floorServer = await startLongPollFloor(engine.envelopes, DEADLINE_MS);
  const floor = await playCrowd(floorServer.url, floorServer.runId, leases, "long-poll-floor");
  await floorServer.close();

  const { delays, afterBatch } = delaysOf(warren.samples);
  console.log(
    `${AGENTS} remote agents long-polling one run, ${ROUNDS} rounds of all waking at once after ${WARM_UP_ROUNDS} warm-up rounds:`,
  );
  console.log(`  wake → observation delivered         ${tails(delays)}  (${delays.length} observations)`);
  console.log(`  batch issued → observation delivered ${tails(afterBatch)}`);
  console.log(`  the warm-up rounds, not judged       ${tails(delaysOf(warren.warmUp).delays)}`);
  console.log(`  floor: a bare fastify server         ${tails(delaysOf(floor.samples).delays)}`);
  // CPU time depends far less on what else the machine runs: the server's whole cost of a round
  // (100 polls answered, 100 commands judged, the engine's step) beside the engine's alone, and
  // beside what answering the same 200 requests costs a server with nothing behind them.
  console.log(
    `  server CPU a round ${ms(warren.cpuPerRound)}: the engine alone ${ms(engine.cpuPerRound)}, the bare fastify server ${ms(floor.cpuPerRound)} (${(warren.cpuPerRound / (engine.cpuPerRound + floor.cpuPerRound)).toFixed(2)}× the two together)`,
  );
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
      value: warren.cpuPerRound / engine.cpuPerRound,
      goal: 2,
      bound: "at most",
      unit: "×",
    },
  );
}

/**
 * The crowd's rounds with the engine driven in-process, no HTTP: its CPU a round after the same
 * warm-up, and each agent's last envelope (what the floor server answers with).
 */
function engineAlone(): { cpuPerRound: number; envelopes: Map<string, Envelope> } {
  const ids = crowdedValley.agents.map((a) => a.id);
  const run = new Run({
    runId: "cpu",
    scenario: crowdedValley,
    seed: 1,
    controlledAgents: ids,
    npcPolicy: "none",
  });
  run.start();
  const playRound = (round: number): void => {
    for (const id of ids) {
      const envelope = run.outstanding(id)!;
      run.submit(id, {
        command_id: `${id}-${round}`,
        observation_id: envelope.observation_id,
        sleep_ms: 1000,
      });
    }
  };
  for (let round = 0; round < WARM_UP_ROUNDS; round++) playRound(round);
  const before = process.cpuUsage();
  for (let round = WARM_UP_ROUNDS; round < WARM_UP_ROUNDS + ROUNDS; round++) playRound(round);
  const used = process.cpuUsage(before);
  const envelopes = new Map(ids.map((id) => [id, run.outstanding(id)!]));
  run.dispose();
  return { cpuPerRound: (used.user + used.system) / 1000 / ROUNDS, envelopes };
}

interface Sample {
  simTimeMs: number;
  woke: number;
  arrived: number;
}

/**
 * The agents' side (child process): poll, note the delay since the wake, answer with a sleep.
 * Tells the parent when the warm-up rounds are over.
 */
async function crowdAgents(base: string, runId: string, leases: Record<string, string>): Promise<void> {
  const samples: Sample[] = [];
  const warmUp: Sample[] = [];
  await Promise.all(
    Object.entries(leases).map(async ([id, lease], index) => {
      const url = `${base}/v1/runs/${runId}/agents/${id}`;
      let after = -1;
      for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
        const polled = await send(`${url}/observations?lease=${lease}&after=${after}&wait=25`, "GET");
        // The server stamps the deadline from its wall clock (Date.now()); so is the arrival, not
        // from performance.timeOrigin, which differs from it by a millisecond or two.
        const arrived = Date.now();
        const envelope = answer<Envelope>(polled, `${id}'s poll`);
        const woke = envelope.deadline_unix * 1000 - DEADLINE_MS;
        // Round 0 is the start, answered at once: not a wake anyone waited for.
        if (round >= WARM_UP_ROUNDS) samples.push({ simTimeMs: envelope.sim_time_ms, woke, arrived });
        else if (round > 0) warmUp.push({ simTimeMs: envelope.sim_time_ms, woke, arrived });
        if (round === WARM_UP_ROUNDS && index === 0) process.send!("warm");
        after = envelope.seq;
        const receipt = await send(`${url}/commands?lease=${lease}`, "POST", {
          command_id: `${id}-${round}`,
          observation_id: envelope.observation_id,
          sleep_ms: 1000,
        });
        if (answer<Receipt>(receipt, `${id}'s command`).status !== "accepted") {
          throw new Error(`${id}'s command not accepted: ${receipt.body}`);
        }
      }
    }),
  );
  process.stdout.write(JSON.stringify({ samples, warmUp }));
  process.disconnect();
}

if (process.argv[2] === "--round-trips") {
  await roundTripClient(process.argv[3]!, process.argv[4]!, process.argv[5]!);
  agent.destroy();
} else if (process.argv[2] === "--crowd") {
  await crowdAgents(process.argv[3]!, process.argv[4]!, JSON.parse(process.argv[5]!));
  agent.destroy();
} else {
  await roundTrip();
  await crowd();
  agent.destroy();
  judgeGoals(goals);
}
