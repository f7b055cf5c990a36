// `node --import tsx bench/worktrees.ts` (`--check` exits non-zero on a missed goal; `--cpu-prof DIR`
// writes the daemon's CPU profile there; BENCH_WORKTREES and BENCH_FILES change the 50 jobs and the
// 20,000 files): jobs in git worktrees of one large repository.
// - dispatch with a worktree against `git worktree add` alone: each dispatch against the `git
//   worktree add` it ran (the floor, timed by a wrapper the daemon runs as its git), so that both
//   meet the disk in the same state (a worktree add here takes from 0.5 s to 12 s as the disk's
//   writeback goes); goal: median ratio <= 1.2x. The same add run alone, in turns with the
//   dispatches, is printed beside it;
// - a change's delay until the row shows it: a file written in one worktree after another, the time
//   until that job's row counts it; goal: p50 < 1 s;
// - the daemon's CPU (git included: its children's time counts) while every agent edits a file once
//   a second; goal: < 10 % of a core.
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { statePaths } from "../src/home/paths.js";
import { LinesClient } from "./lines-client.js";
import { procStat } from "./process-cpu.js";
import { figures, nowMs } from "./stats.js";

const JOBS = Number(process.env.BENCH_WORKTREES ?? 50);
const FILES = Number(process.env.BENCH_FILES ?? 20_000);
const FILES_PER_FOLDER = 100;
const EDIT_SECONDS = 20;
const check = process.argv.includes("--check") || process.env.BENCH_CHECK === "1";
const profAt = process.argv.indexOf("--cpu-prof");
const prof = profAt >= 0 ? ["--cpu-prof", "--cpu-prof-dir", process.argv[profAt + 1]!] : [];
const CLI = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));

const root = mkdtempSync(join(tmpdir(), "roost-bench-worktrees-"));
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** A repository of FILES files in folders of 100, one commit. */
function makeRepository(): string {
  const repo = join(root, "repo");
  mkdirSync(repo);
  for (let i = 0; i < FILES; i++) {
    const folder = join(repo, `src/m${Math.floor(i / FILES_PER_FOLDER)}`);
    if (i % FILES_PER_FOLDER === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `f${i}.ts`), `export const v${i} = ${i};\n`);
  }
  git(repo, "init", "-q", "-b", "main");
  git(repo, "add", "-A");
  git(repo, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-q", "-m", "start");
  return repo;
}

/**
 * The daemon's CPU seconds with its git's: the gits it ran and reaped, and the long-lived ones it
 * keeps (an object reader's), which no reaping has counted yet.
 */
function cpuSeconds(pid: number): number {
  let total = procStat(pid)?.waited ?? 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const child = procStat(entry);
    if (child && child.ppid === pid && child.name === "git") total += child.own;
  }
  return total;
}

const median = (xs: number[]) => figures(xs).p50;

/**
 * Waits (up to two minutes) until the daemon and its git use under 2 % of a core over 6 s: longer
 * than a worktree waits, quiet, before its whole read.
 */
async function settled(pid: number): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const before = cpuSeconds(pid);
    await new Promise((r) => setTimeout(r, 6000));
    if (cpuSeconds(pid) - before < 0.12) return;
  }
}

const t0 = nowMs();
const repo = makeRepository();
console.log(`a repository of ${FILES} files in ${((nowMs() - t0) / 1000).toFixed(1)} s`);

const home = join(root, "home");
mkdirSync(home);
// The daemon's git: each `worktree add` timed (start and end, in ns) into a file; the rest as they are.
const adds = join(root, "worktree-adds");
const gitTimer = join(root, "git-timer");
writeFileSync(
  gitTimer,
  `#!/bin/sh\n[ "$1 $2" = "worktree add" ] || exec git "$@"\ns=$(date +%s%N); git "$@"; rc=$?\necho "$s $(date +%s%N)" >> '${adds}'\nexit $rc\n`,
);
chmodSync(gitTimer, 0o755);
writeFileSync(
  join(home, "roost.json"),
  JSON.stringify({ agentProfiles: { bench: { command: ["sleep", "600"], task: "argv", protocol: false } } }),
);
const daemon = spawn(process.execPath, [...prof, "--import", "tsx", CLI, "daemon"], {
  env: { ...process.env, ROOST_HOME: home, ROOST_GIT: gitTimer },
  stdio: ["ignore", "ignore", "inherit"],
});
const exited = new Promise((r) => daemon.once("exit", r));
let failed = false;
try {
  const hub = await LinesClient.openWhenReady(statePaths(home).socket);
  // Each row as its events show it: a change is seen when its job's row counts it.
  const rows = new Map<string, { files: number; path: string }>();
  const seen = new Map<string, (files: number) => void>();
  hub.onEvent = (event) => {
    if (event.event !== "row" || !event.row.worktree) return;
    const { id, worktree } = event.row;
    rows.set(id, { files: worktree.files, path: worktree.path });
    seen.get(id)?.(worktree.files);
  };
  await hub.request("subscribe", {});

  const dispatch: number[] = [];
  const alone: number[] = [];
  const ids: string[] = [];
  /** git alone, as roost runs it (a new branch from HEAD, a folder of its own). */
  const gitAlone = (i: number) => {
    const s = nowMs();
    git(repo, "worktree", "add", "-q", "-b", `alone/${i}`, join(root, `alone-${i}`), "HEAD");
    alone.push(nowMs() - s);
  };
  for (let i = 0; i < JOBS; i++) {
    // In turns, which goes first alternating: each follows the other's writes as often.
    if (i % 2 === 0) gitAlone(i);
    const s = nowMs();
    const r = await hub.request("dispatch", { profile: "bench", cwd: repo, worktree: true, name: `w${i}` });
    if (!r.ok) throw new Error(`dispatch refused: ${r.code}: ${r.error}`);
    dispatch.push(nowMs() - s);
    ids.push(r.result.id);
    if (i % 2 === 1) gitAlone(i);
    git(repo, "worktree", "remove", "--force", join(root, `alone-${i}`));
  }
  // The dispatches ran one after another: the nth add timed is the nth dispatch's.
  const floor = readFileSync(adds, "utf8")
    .trim()
    .split("\n")
    .map((line) => {
      const [start, end] = line.split(" ").map(Number) as [number, number];
      return (end - start) / 1e6;
    });
  const ratios = dispatch.map((ms, i) => ms / floor[i]!);
  const listed = (await hub.request("list", {})).result.rows as { id: string; worktree: { path: string } }[];
  const pathOf = new Map(listed.map((r) => [r.id, r.worktree.path]));
  const ratio = median(ratios);
  console.log(
    `dispatch with a worktree: median ${median(dispatch).toFixed(0)} ms; the git worktree add in it ${median(floor).toFixed(0)} ms; each dispatch against its add: median ${ratio.toFixed(2)}x, worst ${Math.max(...ratios).toFixed(2)}x (goal <= 1.2x); git worktree add run alone between: median ${median(alone).toFixed(0)} ms`,
  );
  // Settled: the first status of every row is in.
  await new Promise((r) => setTimeout(r, 3000));

  // A change's delay until its row shows it, one worktree after another.
  const delays: number[] = [];
  for (const [n, id] of ids.entries()) {
    const before = rows.get(id)?.files ?? 0;
    const shown = new Promise<void>((resolve) =>
      seen.set(id, (files) => {
        if (files > before) resolve();
      }),
    );
    const s = nowMs();
    writeFileSync(join(pathOf.get(id)!, `new-${n}.ts`), "export const added = 1;\n");
    await Promise.race([shown, new Promise((r) => setTimeout(r, 10_000))]);
    delays.push(nowMs() - s);
    seen.delete(id);
  }
  const delay = figures(delays);
  console.log(
    `a change until its row shows it: p50 ${delay.p50.toFixed(0)} ms, p99 ${delay.p99.toFixed(0)} ms over ${delay.n} (goal p50 < 1000 ms)`,
  );

  // The whole reads that follow those changes once quiet are done before the next figure.
  await settled(daemon.pid!);

  // Nobody edits: what the watching costs alone.
  const idle0 = cpuSeconds(daemon.pid!);
  await new Promise((r) => setTimeout(r, 5000));
  const idle = (cpuSeconds(daemon.pid!) - idle0) / 5;
  console.log(
    `${JOBS} worktrees, nobody editing: the daemon and its git at ${(idle * 100).toFixed(1)} % of a core`,
  );

  // Every agent edits a file once a second: the daemon's CPU, its git children's included.
  const cpu0 = cpuSeconds(daemon.pid!);
  let edits = 0;
  const editor = setInterval(() => {
    for (const [n, id] of ids.entries()) {
      writeFileSync(
        join(pathOf.get(id)!, `src/m${n % (FILES / FILES_PER_FOLDER)}/f${n}.ts`),
        `// ${edits}\n`,
      );
      edits++;
    }
  }, 1000);
  await new Promise((r) => setTimeout(r, EDIT_SECONDS * 1000));
  clearInterval(editor);
  const share = (cpuSeconds(daemon.pid!) - cpu0) / EDIT_SECONDS;
  console.log(
    `${JOBS} agents editing once a second for ${EDIT_SECONDS} s (${edits} edits): the daemon and its git at ${(share * 100).toFixed(1)} % of a core (goal < 10 %)`,
  );
  // Once quiet, each worktree is read whole from git (whether it merges): that cost, after.
  const after0 = cpuSeconds(daemon.pid!);
  await new Promise((r) => setTimeout(r, 15_000));
  console.log(
    `then, quiet, each worktree read whole: ${(cpuSeconds(daemon.pid!) - after0).toFixed(1)} CPU-s in 15 s`,
  );
  console.log(
    `load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}; ${new Date().toISOString()}`,
  );
  failed = ratio > 1.2 || delay.p50 >= 1000 || share >= 0.1;
  await hub.request("shutdown", { all: true });
  await Promise.race([exited, new Promise((r) => setTimeout(r, 60_000))]);
  hub.close();
} finally {
  if (daemon.exitCode === null && daemon.signalCode === null) daemon.kill();
  rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
}
if (check && failed) process.exitCode = 1;
