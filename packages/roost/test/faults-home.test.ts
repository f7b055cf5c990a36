// A home's database that is not roost's (empty, cut short, another program's) is never taken for a
// new home: the daemon refuses with what it found and what to do, and the jobs the process host
// runs and their folders are left as they are. `roost doctor` says so and `roost restore` brings
// back the last backup, with the jobs it knew.
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { isProcessAlive } from "../src/home/process.js";
import { homeWithJob } from "./helpers/home-with-job.js";

const DAMAGES: Record<string, { damage(db: string): void; found: RegExp }> = {
  empty: { damage: (db) => writeFileSync(db, ""), found: /the database is empty \(0 bytes\)/ },
  truncated: {
    damage: (db) => truncateSync(db, Math.floor(statSync(db).size / 2 / 4096) * 4096 || 2048),
    found: /the database is cut short \(\d+ of \d+ bytes\)/,
  },
  foreign: {
    damage: (db) => {
      writeFileSync(db, "");
      const other = new Database(db);
      other.exec(
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('mine')",
      );
      other.close();
    },
    found: /the database is not roost's \(tables: notes\)/,
  },
};

test("an empty, a cut short and a foreign database: the daemon refuses and says what to do; the host's job and its folder are left; restore brings them back", async () => {
  const { daemon, id, pid, dir } = await homeWithJob();
  try {
    const db = join(daemon.stateDir, "roost.db");
    for (const [kind, { damage, found }] of Object.entries(DAMAGES)) {
      assert.equal(existsSync(`${db}-wal`), false, "a stopped daemon leaves no log to replay");
      damage(db);
      const damaged = readFileSync(db);

      const refused = await daemon.cli(["ls"]);
      assert.equal(refused.code, 1, kind);
      assert.match(refused.stderr, /the daemon did not start \(exit code 1\)/);
      assert.match(refused.stderr, found);
      assert.match(refused.stderr, /is not taken as a new home/);
      assert.match(refused.stderr, /`roost restore` brings back the backup taken /);
      const log = readFileSync(join(daemon.stateDir, "daemon.log"), "utf8");
      assert.match(log, new RegExp(`refused to start: ${found.source}`));
      assert.ok(isProcessAlive(pid), `${kind}: the job the host runs is not killed`);
      assert.ok(existsSync(dir), `${kind}: the job's folder is not removed`);
      assert.deepEqual(readFileSync(db), damaged, `${kind}: the database is left as it was`);

      if (kind === "empty") {
        const sick = await daemon.cli(["doctor", "--json"]);
        assert.equal(sick.code, 1);
        const findings = JSON.parse(sick.stdout).findings as {
          check: string;
          status: string;
          found: string;
        }[];
        const database = findings.find((f) => f.check === "database")!;
        assert.equal(database.status, "problem");
        assert.match(database.found, found);
        assert.equal(findings.find((f) => f.check === "host")?.status, "ok");
      }

      const restored = await daemon.cli(["restore", "--json"]);
      assert.equal(restored.code, 0, restored.stderr);
      const { keptAside } = JSON.parse(restored.stdout) as { keptAside: string[] };
      assert.deepEqual(readFileSync(keptAside[0]!), damaged, `${kind}: the damaged file is kept aside`);
    }
    const well = await daemon.cli(["doctor", "--json"]);
    assert.equal(well.code, 0, well.stdout);
    const rows = JSON.parse((await daemon.cli(["ls", "--json"])).stdout) as { id: string; pid: number }[];
    const row = rows.find((r) => r.id === id);
    assert.equal(row?.pid, pid, "the restored store knows the job, still running in the host");
  } finally {
    await daemon.stop();
  }
});
