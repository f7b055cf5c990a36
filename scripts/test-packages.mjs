#!/usr/bin/env node
/**
 * Runs every package's test suite at the same time, roost's and warren's: roost's tests mostly
 * wait on processes and terminals, warren's mostly compute, so side by side they take little more
 * than the longer one. Each suite's output stays whole: the first streams as it runs, the others
 * are held and printed once the one before them has ended. Exits non-zero if any suite failed.
 *
 * A suite whose test runner has printed its summary but does not exit within a minute is held
 * open by a process one of its tests left behind: the processes of its group are listed, ended,
 * and the suite fails, so that a leak is seen and the run still ends.
 */
import { execFileSync, spawn } from "node:child_process";

const packages = ["packages/roost", "packages/warren"];
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const HELD_OPEN_MS = 60_000;

/** The processes of a process group, as `ps` lists them (but ps itself). */
function groupProcesses(pgid) {
  try {
    return execFileSync("ps", ["-o", "pid=,pgid=,args=", "-e"], { encoding: "utf8" })
      .split("\n")
      .filter((line) => line.trim().split(/\s+/)[1] === String(pgid) && !/^\s*\d+\s+\d+\s+ps /.test(line));
  } catch {
    return [];
  }
}

function killGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is gone already
  }
}

const suites = packages.map((dir) => {
  // Each suite in a process group of its own, so whatever its tests leave behind can be ended.
  const child = spawn(npm, ["test", "--silent"], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const held = [];
  const suite = { dir, child, held, streaming: false, heldOpen: [] };
  let tail = "";
  let summaryTimer = null;
  const onData = (chunk) => {
    if (suite.streaming) process.stdout.write(chunk);
    else held.push(chunk);
    tail = (tail + chunk).slice(-4096);
    // The runner's own summary ends with its duration, at the start of a line.
    if (!summaryTimer && /(^|\n)# duration_ms \d/.test(tail)) {
      summaryTimer = setTimeout(() => {
        suite.heldOpen = groupProcesses(child.pid);
        killGroup(child.pid, "SIGKILL");
      }, HELD_OPEN_MS);
    }
  };
  for (const stream of [child.stdout, child.stderr]) stream.on("data", onData);
  // 'exit', not 'close': a process a test left behind may keep the pipes open long after.
  suite.ended = new Promise((resolve) =>
    child.on("exit", (code, signal) => {
      clearTimeout(summaryTimer);
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        resolve(code ?? (signal ? 1 : 0));
      }, 1000);
    }),
  );
  return suite;
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const { child } of suites) killGroup(child.pid, signal);
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
  if (suite.heldOpen.length > 0) {
    console.log(
      `\n# ${suite.dir}: the test runner did not exit ${HELD_OPEN_MS / 1000} s after its summary; ` +
        `these processes a test left behind held it open and were ended:\n${suite.heldOpen.map((l) => `#   ${l.trim()}`).join("\n")}`,
    );
    failed.push(`${suite.dir} (held open by processes its tests left)`);
  } else if (code !== 0) failed.push(`${suite.dir} (exit ${code})`);
  // Nothing a suite started outlives the run.
  killGroup(suite.child.pid, "SIGKILL");
}
console.log(failed.length === 0 ? "\n# every package's suite passed" : `\n# failed: ${failed.join(", ")}`);
process.exit(failed.length === 0 ? 0 : 1);
