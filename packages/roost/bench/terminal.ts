// `node --import tsx bench/terminal.ts` (also the end of `npm run bench`; `--quick` for a short run,
// `--check` exits non-zero on a missed goal, `--cpu-prof DIR` writes the daemon's and the process
// host's CPU profiles there, `--no-tmux` skips the comparison): 100 terminal agents printing
// continuously. roost: the daemon's and the process host's CPU and memory, and how fresh rows are
// (a line written → the row event that shows it). Beside it, the tmux way: the same programs in tmux
// panes, every pane read once a second with `tmux capture-pane` (skipped, with a note, without tmux).
// Goal: the age of what rows show p50 < 150 ms, at < 20 % of a core for the daemon and host together.
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { statePaths } from "../src/home/paths.js";
import { LinesClient } from "./lines-client.js";
import { cpuSeconds } from "./process-cpu.js";
import { figures } from "./stats.js";

const quick = process.argv.includes("--quick") || process.env.BENCH_QUICK === "1";
const check = process.argv.includes("--check") || process.env.BENCH_CHECK === "1";
const profAt = process.argv.indexOf("--cpu-prof");
const prof = profAt >= 0 ? ["--cpu-prof", "--cpu-prof-dir", process.argv[profAt + 1]!] : [];
const withTmux = !process.argv.includes("--no-tmux");
const GOAL_SHOWN_AGE_P50_MS = 150;
const GOAL_CPU_PERCENT = 20;
const AGENTS = 100;
const SECONDS = quick ? 8 : 30;
const WARMUP_MS = 3000;
const CLI = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));
const PRINTER = fileURLToPath(new URL("./terminal-printer.pl", import.meta.url));
const TICKS = /tick \d+ at (\d+)/;
const CAPTURES_AT_ONCE = 4;

/** CPU seconds the waited-for children of this process used (the capture-pane subprocesses). */
function childrenCpuSeconds(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/);
  return line ? Number(line[1]) / 1024 : Number.NaN;
}

/** The process whose command line names `needle` (the host, found by its state folder). */
function findPid(needle: string, script: string): number {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (cmd.includes(needle) && cmd.includes(script)) return Number(entry);
    } catch {}
  }
  throw new Error(`no process runs ${script} for ${needle}`);
}

async function inBatches<T>(items: T[], width: number, each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await each(items[next++]!);
  };
  await Promise.all(Array.from({ length: width }, worker));
}

/** Every 100 ms, the age of what is shown for each agent (the write time of its newest line seen). */
function sampleAges(shown: Map<string, number>) {
  const ages: number[] = [];
  let timer: NodeJS.Timeout | null = null;
  return {
    start() {
      timer = setInterval(() => {
        const now = Date.now();
        for (const writtenAt of shown.values()) ages.push(now - writtenAt);
      }, 100);
    },
    stop() {
      if (timer) clearInterval(timer);
      return figures(ages);
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Side {
  name: string;
  /** A line written → the reader sees it (an event, or a capture that found it). */
  freshness: ReturnType<typeof figures>;
  /** How old what the reader shows is, looked at every 100 ms for every agent. */
  shownAge: ReturnType<typeof figures>;
  /** Row updates (or pane reads that found a new line) per agent per second. */
  updatesPerAgentSecond: number;
  cpuPercent: Record<string, number>;
  rssMiB: Record<string, number>;
}

async function benchRoost(): Promise<Side> {
  const home = mkdtempSync(join(tmpdir(), "roost-bench-terminal-"));
  const paths = statePaths(home);
  writeFileSync(
    join(home, "roost.json"),
    JSON.stringify({
      agentProfiles: { printer: { command: ["perl", PRINTER], task: "argv", protocol: false } },
    }),
  );
  let daemon: ChildProcess | null = null;
  try {
    // The process host takes the daemon's node flags: a profile flag profiles both.
    daemon = spawn(process.execPath, [...prof, "--import", "tsx", CLI, "daemon"], {
      env: { ...process.env, ROOST_HOME: home },
      stdio: ["ignore", "ignore", "inherit"],
    });
    let hub: LinesClient | null = null;
    for (let i = 0; i < 600 && !hub; i++) {
      hub = await LinesClient.open(paths.socket).catch(() => null);
      if (!hub) await sleep(50);
    }
    if (!hub) throw new Error("the daemon did not start");
    for (let i = 0; i < AGENTS; i++) {
      const answer = await hub.request("dispatch", { profile: "printer", cwd: home });
      if (!answer.ok) throw new Error(`dispatch: ${answer.error}`);
    }
    const hostPid = findPid(paths.stateDir, "main.");
    const samples: number[] = [];
    let measuring = false;
    let updates = 0;
    const shown = new Map<string, number>();
    hub.onEvent = (event) => {
      if (event.event !== "row") return;
      const written = TICKS.exec(String(event.row.summary ?? ""));
      if (!written) return;
      shown.set(event.row.id, Number(written[1]));
      if (!measuring) return;
      updates++;
      samples.push(Date.now() - Number(written[1]));
    };
    const ages = sampleAges(shown);
    await hub.request("subscribe", {});
    await sleep(WARMUP_MS);
    ages.start();
    const cpu0 = { daemon: cpuSeconds(daemon.pid!), host: cpuSeconds(hostPid) };
    const t0 = Date.now();
    measuring = true;
    await sleep(SECONDS * 1000);
    measuring = false;
    const elapsed = (Date.now() - t0) / 1000;
    const side: Side = {
      name: "roost (screen events)",
      freshness: figures(samples),
      shownAge: ages.stop(),
      updatesPerAgentSecond: updates / AGENTS / elapsed,
      cpuPercent: {
        daemon: ((cpuSeconds(daemon.pid!) - cpu0.daemon) / elapsed) * 100,
        host: ((cpuSeconds(hostPid) - cpu0.host) / elapsed) * 100,
      },
      rssMiB: { daemon: rssMiB(daemon.pid!), host: rssMiB(hostPid) },
    };
    await hub.request("shutdown", { all: true });
    hub.close();
    return side;
  } finally {
    await new Promise((r) => (daemon && daemon.exitCode === null ? daemon.once("exit", r) : r(null)));
    rmSync(home, { recursive: true, force: true });
  }
}

function capturePane(socket: string, target: string): Promise<string> {
  return new Promise((resolve) =>
    execFile("tmux", ["-S", socket, "capture-pane", "-p", "-t", target], (err, out) =>
      resolve(err ? "" : out),
    ),
  );
}

async function benchTmux(): Promise<Side | string> {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
  } catch {
    return "tmux is not installed here: the tmux half is skipped";
  }
  const dir = mkdtempSync(join(tmpdir(), "roost-bench-tmux-"));
  const socket = join(dir, "tmux.sock");
  const tmux = (...args: string[]) => execFileSync("tmux", ["-S", socket, ...args], { stdio: "ignore" });
  try {
    tmux("new-session", "-d", "-s", "bench", "-x", "120", "-y", "40", "perl", PRINTER);
    for (let i = 1; i < AGENTS; i++) tmux("new-window", "-d", "-t", "bench", "perl", PRINTER);
    const serverPid = Number(
      execFileSync("tmux", ["-S", socket, "display-message", "-p", "#{pid}"], { encoding: "utf8" }).trim(),
    );
    const targets = Array.from({ length: AGENTS }, (_, i) => `bench:${i}`);
    await sleep(WARMUP_MS);
    const samples: number[] = [];
    const last = new Map<string, string>();
    const shown = new Map<string, number>();
    const ages = sampleAges(shown);
    ages.start();
    let updates = 0;
    let rounds = 0;
    const cpu0 = { tmux: cpuSeconds(serverPid), capture: childrenCpuSeconds(), self: process.cpuUsage() };
    const t0 = Date.now();
    while (Date.now() - t0 < SECONDS * 1000) {
      const round = Date.now();
      // Every pane, once a second: what tmux-based managers do to read their sessions (a few
      // captures at a time: a hundred forks at once would only measure the fork storm).
      await inBatches(targets, CAPTURES_AT_ONCE, async (target) => {
        const screen = await capturePane(socket, target);
        const lines = screen.trimEnd().split("\n");
        const lastLine = lines[lines.length - 1] ?? "";
        const written = TICKS.exec(lastLine);
        if (!written || last.get(target) === lastLine) return;
        last.set(target, lastLine);
        shown.set(target, Number(written[1]));
        updates++;
        samples.push(Date.now() - Number(written[1]));
      });
      rounds++;
      await sleep(Math.max(0, 1000 - (Date.now() - round)));
    }
    const elapsed = (Date.now() - t0) / 1000;
    const self = process.cpuUsage(cpu0.self);
    return {
      shownAge: ages.stop(),
      name: `tmux capture-pane, every pane once a second (${(rounds / elapsed).toFixed(2)} rounds/s reached)`,
      freshness: figures(samples),
      updatesPerAgentSecond: updates / AGENTS / elapsed,
      cpuPercent: {
        "tmux server": ((cpuSeconds(serverPid) - cpu0.tmux) / elapsed) * 100,
        "capture-pane processes": ((childrenCpuSeconds() - cpu0.capture) / elapsed) * 100,
        "poller (this process)": ((self.user + self.system) / 1e6 / elapsed) * 100,
      },
      rssMiB: { "tmux server": rssMiB(serverPid) },
    };
  } finally {
    try {
      tmux("kill-server");
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  }
}

function print(side: Side): void {
  const f = side.freshness;
  console.log(`\n${side.name}`);
  console.log(
    `  row freshness (line written → seen): p50 ${f.p50.toFixed(0)} ms, p99 ${f.p99.toFixed(0)} ms (${f.n} samples)`,
  );
  const a = side.shownAge;
  console.log(`  age of what is shown (sampled): p50 ${a.p50.toFixed(0)} ms, p99 ${a.p99.toFixed(0)} ms`);
  console.log(`  updates seen: ${side.updatesPerAgentSecond.toFixed(2)} per agent per second`);
  for (const [who, pct] of Object.entries(side.cpuPercent)) console.log(`  CPU ${who}: ${pct.toFixed(1)} %`);
  for (const [who, mib] of Object.entries(side.rssMiB))
    console.log(`  memory ${who}: ${mib.toFixed(0)} MiB RSS`);
}

/** Prints roost's figures against the goal; whether it was met. */
function judge(side: Side): boolean {
  const age = side.shownAge.p50;
  const cpu = Object.values(side.cpuPercent).reduce((a, b) => a + b, 0);
  const met = age < GOAL_SHOWN_AGE_P50_MS && cpu < GOAL_CPU_PERCENT;
  console.log(
    `  goal: shown age p50 < ${GOAL_SHOWN_AGE_P50_MS} ms at < ${GOAL_CPU_PERCENT} % of a core: ` +
      `${age.toFixed(0)} ms at ${cpu.toFixed(1)} % (daemon + host): ${met ? "met" : "MISSED"}; ` +
      `load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
  );
  return met;
}

/** Whether roost met the goal. */
export async function benchTerminal(): Promise<boolean> {
  console.log(
    `\nterminal agents (${quick ? "quick" : "full"}): ${AGENTS} programs printing 10 lines a second for ${SECONDS} s`,
  );
  const roost = await benchRoost();
  print(roost);
  const met = judge(roost);
  if (!withTmux) return met;
  const tmux = await benchTmux();
  if (typeof tmux === "string") console.log(`\n${tmux}`);
  else print(tmux);
  return met;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const met = await benchTerminal();
  if (check && !met) process.exitCode = 1;
}
