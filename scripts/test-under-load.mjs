#!/usr/bin/env node
/**
 * Runs the whole test suite with busy loops beside it, the way a loaded CI machine runs it: a test
 * that passes only on an idle machine (a race, an order assumed, a fixed sleep) fails here.
 *
 *   npm run test:load                 # one run beside two busy loops
 *   npm run test:load -- --runs 3 --busy 2
 */
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "1" },
    busy: { type: "string", default: "2" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  console.log("usage: npm run test:load -- [--runs N] [--busy N]\n");
  console.log("Runs `npm test` N times (default 1) beside N busy-loop processes (default 2),");
  console.log("prints each run's time and result, and exits non-zero if any run failed.");
  process.exit(0);
}
const runs = Number(values.runs);
const busy = Number(values.busy);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(busy) || busy < 0) {
  console.error("test:load: --runs must be a whole number from 1, --busy one from 0");
  process.exit(2);
}

const loops = Array.from({ length: busy }, () =>
  spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }),
);
const stopLoops = () => {
  for (const loop of loops) loop.kill("SIGKILL");
};
process.on("exit", stopLoops);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));

const results = [];
for (let run = 1; run <= runs; run++) {
  console.log(`\n== test:load run ${run} of ${runs}, beside ${busy} busy loops ==\n`);
  const started = Date.now();
  const code = await new Promise((resolve) => {
    const child = spawn("npm", ["test"], { stdio: "inherit" });
    child.on("close", (exitCode) => resolve(exitCode ?? 1));
  });
  results.push({ run, code, seconds: Math.round((Date.now() - started) / 1000) });
}
stopLoops();
console.log("\n== test:load ==");
for (const { run, code, seconds } of results) {
  console.log(`run ${run}: ${code === 0 ? "passed" : `FAILED (exit ${code})`} in ${seconds} s`);
}
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
