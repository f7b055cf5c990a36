/**
 * What `warren mcp` adds to a move. The same play loop two ways, move by move in turn so the
 * machine's load falls on both alike, against one server in this process:
 *  - the floor: warren's own client in a process of its own, as a remote agent's is, submitting
 *    the command and observing the next observation over HTTP;
 *  - the SDK's MCP client here calling a tool of the real `warren mcp` process over stdio: one
 *    call is the command, the next observation and the command's outcome.
 * So the MCP path has one process hop more than the floor (stdio JSON-RPC), and what the seat does
 * beside the floor's two requests. Each move is a sleep of engineer-1 in endless_bridge with the
 * others doing nothing, so the server answers it at once. Per move p50/p99 of each; goal: the MCP
 * call within 1.3× of the HTTP move (p50). Beside them, on Linux, each player process's CPU time a
 * move (from /proc), less moved by the machine's load than wall time. It exits non-zero on a
 * miss on a machine not busier than its cores.
 *
 *   node --import tsx bench/mcp.ts [--cpu-prof DIR]   (after `npm run build`: it runs the built CLI)
 *
 * `--cpu-prof DIR` profiles each `warren mcp` process into DIR.
 */
import { type ChildProcess, fork } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type Envelope, type Receipt, WarrenClient } from "../src/client/index.js";
import { catalogOf, startServer } from "../src/server/index.js";
import { packageDir, warrenBin } from "../test/helpers/warren-process.js";
import { endlessBridge } from "./endless-bridge.js";
import { judgeGoals } from "./goals.js";
import { percentile } from "./percentile.js";
import { cpuMsOf } from "./process-cpu.js";

const RUNS = Number(process.env.BENCH_MCP_RUNS ?? 5);
const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 300);
/** Moves at the start of each run left out: both players are fresh processes, still compiling. */
const WARM_UP = 50;
const AGENT = "engineer-1";
const SLEEP_MS = 1000;

/** The floor's process, asked for one move at a time; it times the move itself. */
class HttpPlayer {
  private constructor(private readonly child: ChildProcess) {}

  get pid(): number {
    return this.child.pid!;
  }

  static async start(serverUrl: string, runId: string): Promise<HttpPlayer> {
    const child = fork(fileURLToPath(import.meta.url), ["--http-player", serverUrl, runId]);
    await new Promise((resolve) => child.once("message", resolve));
    return new HttpPlayer(child);
  }

  move(): Promise<number> {
    return new Promise((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the HTTP player exited (${code})`));
      this.child.once("exit", exited);
      this.child.once("message", (ms) => {
        this.child.off("exit", exited);
        resolve(ms as number);
      });
      this.child.send("move");
    });
  }

  close(): void {
    this.child.disconnect();
  }
}

/** The floor's side (child process): observes first, then answers each "move" with its time. */
async function playOverHttp(serverUrl: string, runId: string): Promise<void> {
  const session = new WarrenClient(serverUrl).agent(runId, AGENT);
  await session.claim();
  let envelope = (await session.observe(5))!;
  process.on("message", async () => {
    const started = performance.now();
    const receipt = await session.submit(envelope, { sleep_ms: SLEEP_MS });
    if (receipt.status !== "accepted") throw new Error(`HTTP move not accepted: ${JSON.stringify(receipt)}`);
    const next = await session.observe(5);
    if (!next) throw new Error("HTTP move: no next observation");
    envelope = next;
    process.send!(performance.now() - started);
  });
  process.on("disconnect", () => process.exit(0));
  process.send!("ready");
}

/** The same move as one tool call to the real `warren mcp`, timed from here. */
class McpPlayer {
  private constructor(
    private readonly client: Client,
    readonly pid: number,
  ) {}

  static async start(serverUrl: string, runId: string, profileDir?: string): Promise<McpPlayer> {
    const profile = profileDir ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : [];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...profile, warrenBin, "mcp", "--server", serverUrl, "--run", runId, "--agent", AGENT],
      cwd: packageDir,
    });
    const client = new Client({ name: "warren-bench", version: "0" });
    await client.connect(transport);
    await client.callTool({ name: "observe", arguments: {} });
    return new McpPlayer(client, transport.pid!);
  }

  async move(): Promise<number> {
    const started = performance.now();
    const result = (await this.client.callTool({
      name: "sleep",
      arguments: { ms: SLEEP_MS },
    })) as CallToolResult;
    const ms = performance.now() - started;
    const structured = result.structuredContent as { receipt?: Receipt; observation?: Envelope } | undefined;
    if (result.isError || structured?.receipt?.status !== "accepted" || !structured.observation) {
      throw new Error(`MCP move not accepted: ${JSON.stringify(result.content)}`);
    }
    return ms;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

async function measure(profileDir: string | undefined): Promise<void> {
  const server = await startServer({ port: 0 }, { scenarios: catalogOf([endlessBridge]) });
  const warren = new WarrenClient(server.url);
  const newRun = async (): Promise<string> =>
    (
      await warren.createRun(endlessBridge.name, {
        seed: 1,
        controlled_agents: [AGENT],
        npc_policy: "none",
      })
    ).run_id;
  const http: number[] = [];
  const mcp: number[] = [];
  // Each player process's CPU over the measured moves: less moved by the load than wall time.
  const cpuMs = { http: 0, mcp: 0 };
  const cpuNow = (player: { pid: number }): number => cpuMsOf(player.pid) ?? Number.NaN;
  const loadBefore = loadavg();
  for (let run = 0; run < RUNS; run++) {
    const direct = await HttpPlayer.start(server.url, await newRun());
    const tools = await McpPlayer.start(server.url, await newRun(), profileDir);
    let httpCpu = 0;
    let mcpCpu = 0;
    for (let i = 0; i < WARM_UP + CALLS; i++) {
      if (i === WARM_UP) [httpCpu, mcpCpu] = [cpuNow(direct), cpuNow(tools)];
      // Each goes first every other move, so neither always follows the other's garbage.
      const httpFirst = i % 2 === 0;
      const first = await (httpFirst ? direct.move() : tools.move());
      const second = await (httpFirst ? tools.move() : direct.move());
      if (i < WARM_UP) continue;
      http.push(httpFirst ? first : second);
      mcp.push(httpFirst ? second : first);
    }
    cpuMs.http += cpuNow(direct) - httpCpu;
    cpuMs.mcp += cpuNow(tools) - mcpCpu;
    direct.close();
    await tools.close();
  }
  await server.close();

  const cpu = cpus();
  const load = (l: number[]): string => l.map((x) => x.toFixed(2)).join(" ");
  const figures = (samples: number[]): string =>
    `p50 ${percentile(samples, 50).toFixed(3)} ms  p99 ${percentile(samples, 99).toFixed(3)} ms`;
  const ratio = percentile(mcp, 50) / percentile(http, 50);
  console.log(`${new Date().toISOString()}, ${cpu.length} × ${cpu[0]?.model ?? "unknown CPU"}`);
  console.log(`load average ${load(loadBefore)} before, ${load(loadavg())} after (1, 5, 15 min)`);
  console.log(`a move (sleep ${SLEEP_MS} ms), ${RUNS} runs of ${CALLS} after ${WARM_UP} warm-up, each path:`);
  console.log(`  HTTP, warren's client (submit, observe)  ${figures(http)}`);
  console.log(`  MCP tool call through warren mcp         ${figures(mcp)}`);
  console.log(`  ratio (p50) ${ratio.toFixed(2)}× (goal: within 1.3×)`);
  const perMove = (ms: number): string => `${(ms / (RUNS * CALLS)).toFixed(3)} ms`;
  if (Number.isFinite(cpuMs.http + cpuMs.mcp)) {
    console.log(
      `  CPU a move: the HTTP player's process ${perMove(cpuMs.http)}, warren mcp's ${perMove(cpuMs.mcp)} (${(cpuMs.mcp / cpuMs.http).toFixed(2)}×)`,
    );
  }
  judgeGoals([
    { name: "MCP tool call ÷ HTTP move (p50)", value: ratio, goal: 1.3, bound: "at most", unit: "×" },
  ]);
}

if (process.argv[2] === "--http-player") {
  await playOverHttp(process.argv[3]!, process.argv[4]!);
} else {
  await measure(process.argv[2] === "--cpu-prof" ? process.argv[3] : undefined);
}
