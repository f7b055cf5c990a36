// `node --import tsx bench/cli-start.ts` (`--check` exits non-zero on a missed goal; `--bin FILE`
// times another build's `roost`): the whole `roost ls` against `node -e 0`, in pairs taken one after
// the other so that the machine's load weighs on both alike. Goal: the median ratio ≤ 1.3x.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { nowMs } from "./stats.js";

const PAIRS = Number(process.env.BENCH_PAIRS ?? 20);
const GOAL = 1.3;
const check = process.argv.includes("--check") || process.env.BENCH_CHECK === "1";
const binAt = process.argv.indexOf("--bin");
const BIN =
  binAt >= 0 ? process.argv[binAt + 1]! : fileURLToPath(new URL("../bin/roost.js", import.meta.url));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function timed(args: string[], env: NodeJS.ProcessEnv): number {
  const t0 = nowMs();
  execFileSync(process.execPath, args, { env, stdio: ["ignore", "ignore", "inherit"] });
  return nowMs() - t0;
}

const home = mkdtempSync(join(tmpdir(), "roost-bench-cli-"));
const env = { ...process.env, ROOST_HOME: home };
try {
  // The first `ls` starts the daemon; the pairs then time a CLI that finds it running.
  timed([BIN, "ls"], env);
  const ratios: number[] = [];
  const ls: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < PAIRS; i++) {
    const a = timed([BIN, "ls"], env);
    const b = timed(["-e", "0"], env);
    ls.push(a);
    floor.push(b);
    ratios.push(a / b);
  }
  const ratio = median(ratios);
  console.log(
    `roost ls ${median(ls).toFixed(0)} ms, node -e 0 ${median(floor).toFixed(0)} ms (medians of ${PAIRS} pairs): ` +
      `${ratio.toFixed(2)}x (goal <= ${GOAL}x); load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
  );
  if (check && ratio > GOAL) process.exitCode = 1;
} finally {
  execFileSync(process.execPath, [BIN, "shutdown", "--all"], { env, stdio: "ignore" });
  rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
}
