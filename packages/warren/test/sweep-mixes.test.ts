import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import type { RunRecord } from "../src/sweep/run-record.js";
import { readRecords, runWarren } from "./helpers/warren-process.js";

const root = mkdtempSync(join(tmpdir(), "warren-sweep-mixes-"));
after(() => rmSync(root, { recursive: true, force: true }));

test("agent mixes: a remote client plays its agents per run, idle agents do nothing, a dying client crashes its run", async () => {
  const out = join(root, "mixes");
  const mixes = join(root, "mixes.json");
  writeFileSync(
    mixes,
    JSON.stringify({
      mixes: [
        { name: "solution" },
        {
          name: "remote-engineer",
          remote: ["engineer-1"],
          command: [process.execPath, "--import", "tsx", "examples/solution-client.ts"],
        },
        { name: "no-lookout", none: ["lookout-1"] },
        { name: "quitter", remote: ["courier-1"], command: [process.execPath, "-e", "process.exit(3)"] },
      ],
    }),
  );
  const sweep = await runWarren([
    "sweep",
    "bridge_repair",
    "--seeds",
    "1-3",
    "--agents",
    mixes,
    "--out",
    out,
    "--workers",
    "2",
  ]);
  assert.equal(sweep.code, 0, sweep.stderr);
  const byKey = new Map<string, RunRecord>(readRecords(out).map((r) => [r.key, r]));
  assert.equal(byKey.size, 12);
  for (const seed of [1, 2, 3]) {
    const solo = byKey.get(`bridge_repair/solution/${seed}`)!;
    const remote = byKey.get(`bridge_repair/remote-engineer/${seed}`)!;
    // Remote play over HTTP decides as the runner would, so the run is the same run.
    assert.equal(remote.log_hash, solo.log_hash);
    assert.equal(remote.commands, solo.commands);
    assert.deepEqual(remote.client, { exit_code: 0, signal: null });
    const idle = byKey.get(`bridge_repair/no-lookout/${seed}`)!;
    assert.notEqual(idle.log_hash, solo.log_hash);
    assert.ok(idle.success, "the engineer and courier manage without the lookout");
    const quitter = byKey.get(`bridge_repair/quitter/${seed}`)!;
    assert.equal(quitter.status, "crashed");
    assert.match(quitter.status_reason, /the remote client exited \(code 3\)/);
    assert.equal(quitter.client?.exit_code, 3);
  }
  assert.match(sweep.stdout, /^bridge_repair\s+quitter\s+3\s+0\.0%/m);
});
