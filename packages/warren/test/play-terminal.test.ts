import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { startWarrenServe } from "./helpers/play-table.js";
import { warrenBin } from "./helpers/warren-process.js";

/** `warren play ARGS`, outside any roost job: on the terminal. */
function play(...args: string[]) {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(ROOST|PI)_(JOB|SOCKET|DAEMON)/.test(name)) delete env[name];
  const child = spawn(process.execPath, [warrenBin, "play", ...args], {
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const waiters = new Set<() => void>();
  child.stdout.on("data", (d) => {
    stdout += d;
    for (const w of [...waiters]) w();
  });
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? -1)));
  return {
    child,
    exited,
    get stderr() {
      return stderr;
    },
    /** Resolves once stdout, past `from` characters, matches. */
    until(pattern: RegExp, from = 0): Promise<string> {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!pattern.test(stdout.slice(from))) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(stdout);
        };
        const timer = setTimeout(() => reject(new Error(`no ${pattern} in: ${stdout}\n${stderr}`)), 60_000);
        waiters.add(check);
        check();
      });
    },
  };
}

describe("warren play on the terminal", () => {
  let warren: { url: string; stop(): void };
  before(async () => {
    warren = await startWarrenServe();
  });
  after(() => warren.stop());

  it("makes a run, asks with numbered choices, and reads typed commands", async () => {
    const player = play(warren.url, "engineer-1", "--scenario", "bridge_repair", "--seed", "3");
    try {
      const asked = await player.until(/> $/);
      assert.match(asked, /\[t=0s\] You are Sam the engineer/);
      assert.match(asked, /\n {2}\d+\. take toolbox-1\n/);
      assert.match(player.stderr, /made run-\d+ \(bridge_repair seed 3\)/);
      let seen = asked.length;
      player.child.stdin.write("take\n");
      const refused = await player.until(/> $/, seen);
      assert.match(refused.slice(seen), /"take" does not fit: args is missing the required field "item"/);
      seen = refused.length;
      player.child.stdin.write("take toolbox-1\n");
      const next = await player.until(/t=1s[\s\S]*> $/, seen);
      assert.match(next.slice(seen), /take toolbox-1: accepted; the run goes on/);
      assert.match(next.slice(seen), /Last: take toolbox-1 → accepted, outcome accepted\./);
    } finally {
      player.child.kill("SIGKILL");
    }
  });

  it("refuses a wrong command line with its usage", async () => {
    for (const args of [["http://127.0.0.1:1"], ["http://127.0.0.1:1", "run-1", "a", "--seed", "3"]]) {
      const player = play(...args);
      assert.equal(await player.exited, 2, args.join(" "));
      assert.match(player.stderr, /Usage: warren play SERVER RUN AGENT/);
    }
  });
});
