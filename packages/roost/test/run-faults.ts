// `npm run faults`: the fault suite's long form. Each `faults-*.test.ts` file (or each file named on
// the command line) runs alone, in a temp
// folder of its own (its homes, daemons, hosts and jobs are found by it), within a time limit: a
// file that outlives it is killed and counted failed, never waited for. Progress as each test
// ends, then a summary with every test's figures; the exit code is 1 when anything failed, timed
// out or left a process behind.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { killAll, processesMentioning } from "./helpers/leftovers.js";

const TEST_DIR = fileURLToPath(new URL(".", import.meta.url));
const KILLS = Number(process.env.ROOST_FAULT_KILLS) || 100;
/** Rounds of the memory soak (`faults-memory`): 40 sessions a round, 30 unique messages each. */
const SOAK_ROUNDS = Number(process.env.ROOST_FAULT_SOAK_ROUNDS) || 24;
/**
 * A file's time limit (ROOST_FAULT_FILE_LIMIT_MS sets one for all): the kill file's grows with its
 * kills (about 4 s each on a loaded 2-core machine).
 */
const fileLimitMs = (file: string) =>
  Number(process.env.ROOST_FAULT_FILE_LIMIT_MS) ||
  5 * 60_000 + (basename(file) === "faults-kill.test.ts" ? KILLS * 6000 : 0);
/**
 * How long a file's processes may take to end after it before they count as left behind (a test's
 * stop waits for its daemon, which waits for its host: a moment is enough).
 */
const LEFTOVER_PATIENCE_MS = 5000;

interface TestResult {
  name: string;
  ok: boolean;
  skipped: string | null;
  ms: number;
  figures: Record<string, number | string>[];
  failure: string[];
}

interface FileResult {
  file: string;
  tests: TestResult[];
  code: number | null;
  timedOut: boolean;
  ms: number;
  leftovers: string[];
}

const seconds = (ms: number) =>
  ms >= 120_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 1000).toFixed(1)} s`;
const figureLine = (figures: Record<string, number | string>) =>
  Object.entries(figures)
    .map(([name, value]) => `${name} ${value}`)
    .join(" · ");

/** Reads node:test's TAP output: each top-level test's result, its time, its figures, its failure. */
function tapReader(onTest: (test: TestResult) => void) {
  const tests: TestResult[] = [];
  let last: TestResult | null = null;
  let inFailure = false;
  return {
    tests,
    line(text: string) {
      const result = /^(not )?ok \d+ - (.*?)(?: # SKIP(.*))?$/.exec(text);
      if (result) {
        if (last) onTest(last);
        last = {
          name: result[2]!,
          ok: !result[1],
          skipped: result[3]?.trim() ?? null,
          ms: 0,
          figures: [],
          failure: [],
        };
        if (result[3] !== undefined && last.skipped === "") last.skipped = "skipped";
        tests.push(last);
        inFailure = !last.ok;
        return;
      }
      if (!last) return;
      const figures = /^# figures (\{.*\})$/.exec(text);
      if (figures) {
        last.figures.push(JSON.parse(figures[1]!));
        return;
      }
      const duration = /^ {2}duration_ms: ([\d.]+)/.exec(text);
      if (duration) last.ms = Number(duration[1]);
      else if (inFailure && /^ {2}\S/.test(text) && !text.startsWith("  ...")) last.failure.push(text.trim());
      if (text === "  ...") inFailure = false;
    },
    /** A test's figures come after its result line: the last test is told of once the output ends. */
    end() {
      if (last) onTest(last);
    },
  };
}

/** The tail of every daemon and host log the file's homes kept: what it was doing when it failed. */
function logTails(folder: string): string[] {
  const lines: string[] = [];
  for (const home of readdirSync(folder)) {
    for (const log of ["daemon.log", "host.log"]) {
      const path = join(folder, home, "roost", log);
      if (!existsSync(path)) continue;
      lines.push(`    ${home}/roost/${log}:`);
      for (const l of readFileSync(path, "utf8").trimEnd().split("\n").slice(-12)) lines.push(`      ${l}`);
    }
  }
  return lines;
}

/** The environment for a file, without node:test's mark of a run already under way (it would skip the file). */
const { NODE_TEST_CONTEXT: _, ...OWN_ENV } = process.env;

let running: { pid: number } | null = null;

async function runFile(file: string): Promise<FileResult> {
  const folder = mkdtempSync(join(tmpdir(), "roost-faults-"));
  const limit = fileLimitMs(file);
  const started = Date.now();
  console.log(`${basename(file)} (limit ${seconds(limit)})`);
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--test",
      "--test-reporter=tap",
      // Once its tests are over the file ends, whatever a failed one left open.
      "--test-force-exit",
      // A test past this is ended by the test runner, which names it; the file's limit is the backstop.
      `--test-timeout=${Math.round(limit * 0.8)}`,
      file,
    ],
    {
      env: {
        ...OWN_ENV,
        ROOST_FAULT_KILLS: String(KILLS),
        ROOST_FAULT_SOAK_ROUNDS: String(SOAK_ROUNDS),
        TMPDIR: folder,
      },
      // A process group of its own: a file past its limit is killed with all it started.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  running = { pid: child.pid! };
  const tap = tapReader((test) => {
    const mark = test.skipped ? "-" : test.ok ? "✔" : "✖";
    console.log(
      `  ${mark} ${test.name} (${seconds(test.ms)})${test.skipped ? `: skipped, ${test.skipped}` : ""}`,
    );
    for (const figures of test.figures) console.log(`      ${figureLine(figures)}`);
    for (const line of test.failure.slice(0, 20)) console.log(`      ${line}`);
  });
  createInterface({ input: child.stdout! }).on("line", (line) => tap.line(line));
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr = (stderr + d).slice(-8000)));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    process.kill(-child.pid!, "SIGKILL");
  }, limit);
  const code = await new Promise<number | null>((resolve) => child.once("close", (c) => resolve(c)));
  clearTimeout(timer);
  running = null;
  tap.end();

  // What the file started must end with it; a host closing its jobs is given a moment (none when
  // the file was killed: what it left then stays).
  const deadline = timedOut ? 0 : Date.now() + LEFTOVER_PATIENCE_MS;
  let left = processesMentioning(folder);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    left = processesMentioning(folder);
  }
  const leftovers = left.map((pid) => {
    try {
      return `${pid} ${readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim()}`;
    } catch {
      return String(pid);
    }
  });
  killAll(left);

  const result: FileResult = {
    file: basename(file),
    tests: tap.tests,
    code,
    timedOut,
    ms: Date.now() - started,
    leftovers,
  };
  if (failed(result)) {
    if (timedOut) console.log(`  ✖ still running after ${seconds(limit)}: killed`);
    for (const leftover of leftovers) console.log(`  ✖ left running: ${leftover}`);
    if (stderr.trim()) console.log(`  its stderr:\n${stderr.trimEnd().replace(/^/gm, "    ")}`);
    for (const line of logTails(folder)) console.log(line);
  }
  rmSync(folder, { recursive: true, force: true, maxRetries: 5 });
  return result;
}

function failed(result: FileResult): boolean {
  return (
    result.timedOut ||
    result.code !== 0 ||
    result.leftovers.length > 0 ||
    result.tests.length === 0 ||
    result.tests.some((t) => !t.ok)
  );
}

process.on("SIGINT", () => {
  if (running) process.kill(-running.pid, "SIGKILL");
  process.exit(130);
});

const named = process.argv.slice(2).map((f) => resolve(f));
const files =
  named.length > 0
    ? named
    : readdirSync(TEST_DIR)
        .filter((f) => /^faults-.*\.test\.ts$/.test(f))
        .sort()
        .map((f) => join(TEST_DIR, f));
const started = Date.now();
console.log(
  `The fault suite, long form: ${files.length} files, ${KILLS} daemon SIGKILLs, one file at a time\n`,
);
const results: FileResult[] = [];
for (const file of files) results.push(await runFile(file));

const tests = results.flatMap((r) => r.tests);
const bad = results.filter(failed);
console.log(
  `\nSummary: ${tests.length} tests in ${files.length} files, ${seconds(Date.now() - started)}: ` +
    `${tests.filter((t) => t.ok && !t.skipped).length} passed, ${tests.filter((t) => !t.ok).length} failed, ` +
    `${tests.filter((t) => t.skipped).length} skipped`,
);
for (const r of results) {
  const why =
    [
      r.timedOut && "TIMED OUT",
      (r.code !== 0 || r.tests.length === 0 || r.tests.some((t) => !t.ok)) && "FAILED",
      r.leftovers.length > 0 && `LEFT ${r.leftovers.length} RUNNING`,
    ]
      .filter(Boolean)
      .join(", ") || "ok";
  console.log(
    `  ${r.file.padEnd(28)} ${why.padEnd(24)} ${String(r.tests.length).padStart(2)} tests  ${seconds(r.ms)}`,
  );
}
console.log("\nFigures:");
for (const t of tests)
  for (const figures of t.figures) console.log(`  ${t.name}\n      ${figureLine(figures)}`);
if (bad.length > 0) {
  console.log(`\nFAILED: ${bad.map((r) => r.file).join(", ")}`);
  process.exit(1);
}
console.log("\nAll passed.");
