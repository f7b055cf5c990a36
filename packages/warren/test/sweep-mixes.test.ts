import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import type { NpcPolicy } from "../src/engine/index.js";
import { createRun } from "../src/scenarios/index.js";
import type { RunRecord } from "../src/sweep/run-record.js";
import type { SweepSummary } from "../src/sweep/sweep-summary.js";
import { bundledClient } from "./helpers/bundled-client.js";
import { assertSummaryMatchesRecords } from "./helpers/sweep-table.js";
import { readRecords, runWarren } from "./helpers/warren-process.js";

const root = mkdtempSync(join(tmpdir(), "warren-sweep-mixes-"));
after(() => rmSync(root, { recursive: true, force: true }));

const SOLUTION_CLIENT = bundledClient("examples/solution-client.ts");

/** Each baseline mix and the `warren run --policy` flags that play the same run. */
const BASELINE_MIXES: { mix: Record<string, unknown>; policy: Record<string, NpcPolicy> }[] = [
  { mix: { name: "no-lookout", none: ["lookout-1"] }, policy: { "lookout-1": "noop" } },
  { mix: { name: "random-engineer", random: ["engineer-1"] }, policy: { "engineer-1": "random" } },
  { mix: { name: "greedy-courier", greedy: ["courier-1"] }, policy: { "courier-1": "greedy" } },
  {
    mix: { name: "all-random", others: "random" },
    policy: { "engineer-1": "random", "courier-1": "random", "lookout-1": "random" },
  },
];

test("agent mixes: remote clients, baselines beside runners (hashing as warren run --policy), a dying client crashes its run", async () => {
  const out = join(root, "mixes");
  const mixes = join(root, "mixes.json");
  writeFileSync(
    mixes,
    JSON.stringify({
      mixes: [
        { name: "solution" },
        { name: "remote-engineer", remote: ["engineer-1"], command: SOLUTION_CLIENT },
        ...BASELINE_MIXES.map((b) => b.mix),
        // Per-agent policies reach runs hosted for a remote client too.
        {
          name: "remote-noop-lookout",
          remote: ["engineer-1"],
          noop: ["lookout-1"],
          command: SOLUTION_CLIENT,
        },
        { name: "quitter", remote: ["courier-1"], command: [process.execPath, "-e", "process.exit(3)"] },
      ],
    }),
  );
  const sweep = await runWarren([
    "sweep",
    "bridge_repair",
    "--seeds",
    // Two seeds show each property (the CLI check below plays seed 2); each further seed costs two more clients.
    "1-2",
    "--agents",
    mixes,
    "--out",
    out,
    "--workers",
    "2",
  ]);
  assert.equal(sweep.code, 0, sweep.stderr);
  const records = readRecords(out);
  const byKey = new Map<string, RunRecord>(records.map((r) => [r.key, r]));
  assert.equal(byKey.size, 16);
  for (const seed of [1, 2]) {
    const solo = byKey.get(`bridge_repair/solution/${seed}`)!;
    const remote = byKey.get(`bridge_repair/remote-engineer/${seed}`)!;
    // Remote play over HTTP decides as the runner would, so the run is the same run.
    assert.equal(remote.log_hash, solo.log_hash);
    assert.equal(remote.commands, solo.commands);
    assert.deepEqual(remote.client, { exit_code: 0, signal: null });
    const engineer = (r: RunRecord) => r.scores.agents.find((a) => a.agent_id === "engineer-1")!;
    assert.equal(engineer(remote).controller, "remote");
    assert.equal(engineer(remote).contribution, engineer(solo).contribution);
    for (const { mix, policy } of BASELINE_MIXES) {
      const record = byKey.get(`bridge_repair/${mix.name}/${seed}`)!;
      const run = createRun({ runId: "r", scenario: "bridge_repair", seed, npcPolicy: policy });
      run.start();
      assert.equal(record.log_hash, (await run.whenEnded()).log_hash, record.key);
      assert.notEqual(record.log_hash, solo.log_hash, record.key);
      for (const [agent, controller] of Object.entries(policy)) {
        const named = mix.name === "no-lookout" ? "none" : controller;
        assert.equal(record.scores.agents.find((a) => a.agent_id === agent)!.controller, named);
      }
    }
    const idle = byKey.get(`bridge_repair/no-lookout/${seed}`)!;
    assert.equal(idle.success, false, "every role is needed: without the lookout the team fails");
    assert.equal(byKey.get(`bridge_repair/remote-noop-lookout/${seed}`)!.log_hash, idle.log_hash);
    const quitter = byKey.get(`bridge_repair/quitter/${seed}`)!;
    assert.equal(quitter.status, "crashed");
    assert.match(quitter.status_reason, /the remote client exited \(code 3\)/);
    assert.equal(quitter.client?.exit_code, 3);
  }
  // The real command line, for one seed: the same hashes and scores as the sweep's records.
  const cli = await Promise.all(
    BASELINE_MIXES.map(({ policy }) =>
      runWarren([
        "run",
        "bridge_repair",
        "--seed",
        "2",
        "--json",
        ...Object.entries(policy).flatMap(([agent, p]) => ["--policy", `${agent}=${p}`]),
      ]),
    ),
  );
  for (const [i, { mix }] of BASELINE_MIXES.entries()) {
    const solo = JSON.parse(cli[i]!.stdout) as { log_hash: string; scores: RunRecord["scores"] };
    const record = byKey.get(`bridge_repair/${mix.name}/2`)!;
    assert.equal(record.log_hash, solo.log_hash, record.key);
    assert.equal(record.scores.time_ratio, solo.scores.time_ratio, record.key);
  }

  const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as SweepSummary;
  assertSummaryMatchesRecords(summary, readFileSync(join(out, "summary.txt"), "utf8"), records);
  const row = (mix: string) => summary.rows.find((r) => r.mix === mix)!;
  assert.equal(row("solution").mean_tested_contribution, null, "nobody is under test");
  assert.equal(row("no-lookout").mean_tested_contribution, 0, "a noop earns nothing");
  assert.equal(row("no-lookout").success_rate, 0);
  assert.ok(row("remote-engineer").mean_tested_contribution! > 0, "the remote engineer did its part");
  assert.match(sweep.stdout, /^bridge_repair\s+quitter\s+2\s+0\.0%/m);
  assert.match(sweep.stdout, /time ratio\s+tested contrib/);
});
