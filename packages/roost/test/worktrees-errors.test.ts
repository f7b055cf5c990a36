import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { git, makeRepository, WORKTREE_PROFILES } from "./helpers/git-repo.js";
import { worktreeSuite } from "./helpers/worktree-suite.js";

const s = worktreeSuite();
const idle = (extra: object) => ({ profile: "idle", name: "idle", worktree: true, cwd: s.repo, ...extra });

test("bad input gets its code: outside a repository, no commit, unknown base, existing branch, bare, unwritable root", async () => {
  const { daemon, repo } = s;
  assert.match(
    await s.refused("not_a_repository", "dispatch", "idle", "--worktree", "--cwd", daemon.stateDir),
    /not inside a git repository/,
  );
  const empty = makeRepository({}, daemon.home);
  assert.match(await s.refusedOp("no_commits", "dispatch", idle({ cwd: empty })), /no commit yet/);
  assert.match(await s.refusedOp("unknown_base", "dispatch", idle({ base: "no-such-ref" })), /no-such-ref/);
  git(repo, "branch", "taken");
  assert.match(await s.refusedOp("branch_exists", "dispatch", idle({ branch: "taken" })), /"taken" exists/);
  await s.refusedOp("bad_request", "dispatch", idle({ branch: "bad..name" }));
  await s.refusedOp("bad_request", "dispatch", idle({ worktree: false, base: "main" }));
  const bare = join(daemon.home, "bare.git");
  git(daemon.home, "init", "--quiet", "--bare", bare);
  await s.refusedOp("bare_repository", "dispatch", idle({ cwd: bare }));
  // A worktree root under a file can never be made, whoever runs the test.
  const config = JSON.parse(readFileSync(join(daemon.home, "roost.json"), "utf8"));
  writeFileSync(join(daemon.home, "a-file"), "");
  writeFileSync(
    join(daemon.home, "roost.json"),
    JSON.stringify({ ...config, worktreeRoot: join(daemon.home, "a-file", "wt") }),
  );
  try {
    assert.match(await s.refusedOp("worktree_root_unwritable", "dispatch", idle({})), /worktreeRoot/);
  } finally {
    writeFileSync(join(daemon.home, "roost.json"), JSON.stringify(config));
  }
  const names = (await s.rows()).map((r) => r.name);
  assert.deepEqual(names, [], "a refused dispatch makes no job");
  assert.equal(git(repo, "branch", "--list", "roost/*"), "", "nor a branch");
});

test("dispatches at once on one repository all get their worktree (git's lock never fails one)", async () => {
  const made = await Promise.all(
    Array.from({ length: 4 }, (_, i) => s.call("dispatch", idle({ name: `many-${i}` }))),
  );
  assert.equal(made.length, 4);
  const rows = (await s.rows()).filter((r) => r.name.startsWith("many-"));
  assert.equal(new Set(rows.map((r) => r.worktree?.branch)).size, 4);
  for (const r of rows) assert.ok(existsSync(r.worktree!.path), r.worktree!.path);
});

test("a profile's worktree: auto makes one in a repository only; worktreeSetup copies files and runs a command first", async () => {
  const { daemon, repo } = s;
  const config = JSON.parse(readFileSync(join(daemon.home, "roost.json"), "utf8"));
  writeFileSync(join(repo, ".env"), "SECRET=1\n");
  writeFileSync(
    join(daemon.home, "roost.json"),
    JSON.stringify({
      ...config,
      worktree: "auto",
      worktreeSetup: { copy: [".env"], command: "cat .env; echo set up > setup.txt" },
      agentProfiles: {
        ...config.agentProfiles,
        failing: {
          ...WORKTREE_PROFILES.idle,
          worktreeSetup: { command: "echo first; echo the last line; exit 4" },
        },
        plain: { ...WORKTREE_PROFILES.idle, worktree: false },
      },
    }),
  );
  try {
    const auto = await s.call("dispatch", { profile: "idle", cwd: repo, name: "auto" });
    const row = await s.rowNamed("auto", (r) => r.lifecycle === "running", "auto running after its setup");
    assert.equal(row.worktree!.branch, "roost/auto");
    assert.equal(readFileSync(join(row.cwd, ".env"), "utf8"), "SECRET=1\n");
    assert.equal(readFileSync(join(row.cwd, "setup.txt"), "utf8"), "set up\n");
    assert.match(readFileSync(join(daemon.stateDir, "jobs", auto.id, "terminal.log"), "utf8"), /SECRET=1/);
    const outside = await s.call("dispatch", { profile: "idle", cwd: daemon.stateDir, name: "outside" });
    assert.equal(
      (await s.rows()).find((r) => r.id === outside.id)!.worktree,
      null,
      "auto: none outside a repository",
    );
    await s.call("dispatch", { profile: "plain", cwd: repo, name: "plain" });
    assert.equal((await s.rows()).find((r) => r.name === "plain")!.worktree, null, "a profile's false wins");
    await s.call("dispatch", { profile: "failing", cwd: repo, name: "failing" });
    const failed = await s.rowNamed("failing", (r) => r.lifecycle === "failed", "the failed setup's row");
    assert.match(failed.error!, /worktree setup failed \(exit code 4\):\nfirst\nthe last line$/);
  } finally {
    writeFileSync(join(daemon.home, "roost.json"), JSON.stringify(config));
    rmSync(join(repo, ".env"));
  }
});
