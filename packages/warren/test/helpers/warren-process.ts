import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { assertBuiltAfter } from "../../../../scripts/stale-build.mjs";
import type { RunRecord } from "../../src/sweep/run-record.js";

export const packageDir = fileURLToPath(new URL("../..", import.meta.url));
/**
 * warren's command as built (`npm test` builds first): the processes the tests start, many per
 * file, start in a third of the time (and CPU) they take from the source through tsx, and the run
 * pool's processes they fork inherit no tsx either.
 */
export const warrenBin = join(packageDir, "bin", "warren.js");
/** `warren serve` on its own (`src/cli/serve.ts` runs alone too), as built. */
export const warrenServeFile = join(packageDir, "dist", "cli", "serve.js");
assertBuiltAfter(join(packageDir, "dist", "cli", "main.js"), join(packageDir, "src"));

export interface WarrenProcess {
  child: ChildProcess;
  /** stdout and stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves when stderr matches the pattern `times` times (default once); returns the first match. */
  waitForStderr(pattern: RegExp, times?: number): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The built `warren ARGS...`, as a real process with its output collected. */
export function startWarren(
  args: string[],
  cwd = packageDir,
  env: NodeJS.ProcessEnv = process.env,
): WarrenProcess {
  const child = spawn(process.execPath, [warrenBin, ...args], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  const waiters: { pattern: RegExp; times: number; resolve(m: RegExpMatchArray): void }[] = [];
  const found = (pattern: RegExp, times: number): RegExpMatchArray | undefined => {
    const all = err.match(new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`)) ?? [];
    return all.length >= times ? (err.match(pattern) ?? undefined) : undefined;
  };
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    err += chunk;
    for (const waiter of [...waiters]) {
      const match = found(waiter.pattern, waiter.times);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("close", (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    waitForStderr(pattern, times = 1) {
      const match = found(pattern, times);
      if (match) return Promise.resolve(match);
      return new Promise((resolve, reject) => {
        waiters.push({ pattern, times, resolve });
        void exited.then(() =>
          reject(new Error(`warren ${args.join(" ")} exited before writing ${pattern}:\n${err}`)),
        );
      });
    },
    exited,
  };
}

/** Runs `warren ARGS...` to its end. */
export async function runWarren(
  args: string[],
  cwd = packageDir,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const warren = startWarren(args, cwd, env);
  const { code } = await warren.exited;
  return { code, stdout: warren.stdout(), stderr: warren.stderr() };
}

/** A sweep folder's records, in the order they were written. */
export function readRecords(dir: string): RunRecord[] {
  return readFileSync(join(dir, "runs.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as RunRecord);
}

/**
 * The run pool's processes whose parent is `pid` (not tsx's esbuild service, which a warren started
 * from its source would have beside them).
 */
export function poolProcessesOf(pid: number): number[] {
  try {
    return execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(pid)], { encoding: "utf8" })
      .split("\n")
      .filter((line) => line.includes("pool-process"))
      .map((line) => Number.parseInt(line, 10));
  } catch {
    return []; // ps exits 1 when there are none
  }
}
