// `node --import tsx bench/dispatch.ts` (`--check` exits non-zero on a missed goal; `--cpu-prof DIR`
// writes the daemon's and the process host's CPU profiles there; `--cli FILE` runs another tree's
// `src/cli/main.ts`, for a before/after): 1000 jobs dispatched in batches of 25, each batch's time
// printed so that growth with the fleet shows. Goal: the last batch within 1.5x of the first, all
// 1000 in under 10 s.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { statePaths } from "../src/home/paths.js";
import { LinesClient } from "./lines-client.js";
import { nowMs } from "./stats.js";

const JOBS = Number(process.env.BENCH_JOBS ?? 1000);
const BATCH = 25;
const check = process.argv.includes("--check") || process.env.BENCH_CHECK === "1";
const profAt = process.argv.indexOf("--cpu-prof");
const profDir = profAt >= 0 ? process.argv[profAt + 1] : undefined;
const cliAt = process.argv.indexOf("--cli");
const CLI =
  cliAt >= 0 ? process.argv[cliAt + 1]! : fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));

let busyRetries = 0;

/** One dispatch; `busy` (a process host too loaded to answer a heartbeat) is tried again, as the CLI does. */
async function dispatchOne(hub: LinesClient): Promise<void> {
  for (;;) {
    const r = await hub.request("dispatch", { profile: "bench" });
    if (r.ok) return;
    if (r.code !== "busy") throw new Error(`dispatch refused: ${r.code}: ${r.error}`);
    busyRetries++;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const home = mkdtempSync(join(tmpdir(), "roost-bench-dispatch-"));
const paths = statePaths(home);
writeFileSync(
  join(home, "roost.json"),
  JSON.stringify({ agentProfiles: { bench: { command: ["sleep", "600"], task: "type", protocol: true } } }),
);
const prof = profDir ? ["--cpu-prof", "--cpu-prof-dir", profDir] : [];
const daemon: ChildProcess = spawn(process.execPath, [...prof, "--import", "tsx", CLI, "daemon"], {
  env: { ...process.env, ROOST_HOME: home },
  stdio: ["ignore", "ignore", "inherit"],
});
const exited = new Promise((r) => daemon.once("exit", r));
let failed = false;
try {
  const hub = await LinesClient.openWhenReady(paths.socket);
  // A subscriber, as the hub is: row events go to it as the fleet grows.
  await hub.request("subscribe", {});
  const batches: number[] = [];
  const t0 = nowMs();
  for (let i = 0; i < JOBS; i += BATCH) {
    const b0 = nowMs();
    await Promise.all(Array.from({ length: Math.min(BATCH, JOBS - i) }, () => dispatchOne(hub)));
    batches.push(nowMs() - b0);
  }
  const total = (nowMs() - t0) / 1000;
  const per = (b: number) => (b / BATCH).toFixed(1);
  console.log(
    `batch ms (${BATCH} concurrent dispatches each): ${batches.map((b) => b.toFixed(0)).join(" ")}`,
  );
  const first = batches[0]!;
  const last = batches[batches.length - 1]!;
  const growth = last / first;
  console.log(
    `dispatched ${JOBS} jobs in ${total.toFixed(1)} s (goal < 10 s); first batch ${per(first)} ms a dispatch, ` +
      `last ${per(last)} ms: ${growth.toFixed(2)}x (goal <= 1.5x); ${busyRetries} busy refusals tried again; load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
  );
  failed = total >= 10 || growth > 1.5;
  const stopped = await hub.request("shutdown", { all: true });
  if (!stopped.ok) {
    console.error(`shutdown --all failed: ${stopped.code}: ${stopped.error}`);
    failed = true;
  }
  // The wait is for a daemon that does not exit: one that does ends the bench at once.
  await Promise.race([exited, new Promise((r) => setTimeout(r, 120_000).unref())]);
  hub.close();
} finally {
  if (daemon.exitCode === null && daemon.signalCode === null) daemon.kill();
  await new Promise((r) => setTimeout(r, 1000));
  // The daemon's last writes (its log, a profile) may land after it was told to go.
  try {
    rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
  } catch (err) {
    console.error(`left ${home} behind: ${(err as Error).message}`);
  }
}
if (check && failed) process.exitCode = 1;
