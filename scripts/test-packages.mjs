#!/usr/bin/env node
/**
 * Runs every package's test suite at the same time, roost's and warren's: roost's tests mostly
 * wait on processes and terminals, warren's mostly compute, so side by side they take little more
 * than the longer one. Each suite's output stays whole: the first streams as it runs, the others
 * are held and printed once the one before them has ended. Exits non-zero if any suite failed.
 */
import { spawn } from "node:child_process";

const packages = ["packages/roost", "packages/warren"];
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

const suites = packages.map((dir) => {
  const child = spawn(npm, ["test", "--silent"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  const held = [];
  const suite = { dir, child, held, streaming: false };
  for (const stream of [child.stdout, child.stderr]) {
    stream.on("data", (chunk) => {
      if (suite.streaming) process.stdout.write(chunk);
      else held.push(chunk);
    });
  }
  suite.ended = new Promise((resolve) =>
    child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0))),
  );
  return suite;
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const { child } of suites) child.kill(signal);
    process.exit(130);
  });
}

const failed = [];
for (const suite of suites) {
  console.log(`\n# ${suite.dir}: npm test`);
  for (const chunk of suite.held) process.stdout.write(chunk);
  suite.held.length = 0;
  suite.streaming = true;
  const code = await suite.ended;
  if (code !== 0) failed.push(`${suite.dir} (exit ${code})`);
}
console.log(failed.length === 0 ? "\n# every package's suite passed" : `\n# failed: ${failed.join(", ")}`);
process.exit(failed.length === 0 ? 0 : 1);
