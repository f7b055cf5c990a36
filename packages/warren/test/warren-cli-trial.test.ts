import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createRun } from "../src/scenarios/index.js";
import { startWarren } from "./helpers/warren-process.js";

/** `warren run ARGS --json` as a real process: its result and exit code. */
async function warrenRun(...args: string[]) {
  const child = startWarren(["run", ...args]);
  const { code } = await child.exited;
  return { code, stdout: child.stdout(), stderr: child.stderr() };
}

/** The hash of the same run played in this process, as a sweep's worker plays it. */
async function hashInProcess(trial: number): Promise<string> {
  const run = createRun({
    runId: "trial",
    scenario: "bridge_repair",
    seed: 3,
    trial,
    npcPolicy: { "engineer-1": "random" },
    pace: null,
  });
  run.start();
  return (await run.whenEnded()).log_hash;
}

describe("warren run --trial", () => {
  it("plays a sweep's trial T of a seed: the random baseline draws as in that trial, the hash is the same", async () => {
    const hashes: string[] = [];
    for (const trial of [0, 1, 2]) {
      const result = await warrenRun(
        "bridge_repair",
        "--seed",
        "3",
        "--policy",
        "engineer-1=random",
        "--trial",
        String(trial),
        "--json",
      );
      assert.notEqual(result.code, 2, result.stderr);
      const hash = (JSON.parse(result.stdout) as { log_hash: string }).log_hash;
      assert.equal(hash, await hashInProcess(trial), `trial ${trial}`);
      hashes.push(hash);
    }
    assert.ok(new Set(hashes).size > 1, "the trials draw differently");
    const plain = await warrenRun("bridge_repair", "--seed", "3", "--policy", "engineer-1=random", "--json");
    assert.equal(
      (JSON.parse(plain.stdout) as { log_hash: string }).log_hash,
      hashes[0],
      "no --trial is trial 0",
    );
  });

  it("refuses a trial that is not an integer from 0 to 4294967295, naming the flag", async () => {
    for (const bad of ["-1", "x", "1.5", "4294967296"]) {
      const result = await warrenRun("bridge_repair", `--trial=${bad}`);
      assert.equal(result.code, 2, `${bad}: ${result.stderr}`);
      assert.match(result.stderr, /--trial must be an integer from 0 to 4294967295/);
    }
    assert.equal((await warrenRun("bridge_repair", "--trial", "4294967295")).code, 0);
  });
});
