/** roost.json checked against one schema: a bad value in each section is named by its key, at daemon start. */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { checkConfig } from "../src/home/config-check.js";
import { statePaths } from "../src/home/paths.js";
import { runCli, waitFor } from "./helpers/daemon.js";

/** One bad value for each section of roost.json, and the key it is named by. */
const BAD_VALUES: { section: string; config: object; key: string }[] = [
  { section: "profiles", config: { agentProfiles: { x: { command: [] } } }, key: "agentProfiles.x.command" },
  { section: "concierge", config: { concierge: { answer: "sometimes" } }, key: "concierge.answer" },
  { section: "peers", config: { agentMaxDepth: -1 }, key: "agentMaxDepth" },
  { section: "peers' reach", config: { agentExternalMessages: "yes" }, key: "agentExternalMessages" },
  { section: "pi", config: { agentTools: "off" }, key: "agentTools" },
  { section: "worktrees", config: { worktree: "always" }, key: "worktree" },
  { section: "worktrees' folder", config: { worktreeRoot: "" }, key: "worktreeRoot" },
  { section: "worktrees' setup", config: { worktreeSetup: { copy: ["../x"] } }, key: "worktreeSetup" },
  { section: "notify", config: { notify: { command: "notify-send" } }, key: "notify.command" },
  { section: "notify's argv", config: { notify: { command: [] } }, key: "notify.command" },
  {
    section: "notify's debounce",
    config: { notify: { command: ["x"], debounceMs: -5 } },
    key: "notify.debounceMs",
  },
  { section: "hub's bell", config: { hub: { bell: "loud" } }, key: "hub.bell" },
  { section: "resume after a reboot", config: { resumeAfterReboot: "yes" }, key: "resumeAfterReboot" },
  { section: "web", config: { web: { enabled: "yes" } }, key: "web.enabled" },
  { section: "web's port", config: { web: { enabled: true, port: 70000 } }, key: "web.port" },
  { section: "web's keys", config: { web: { enable: true } }, key: "web.enable" },
  {
    section: "budgets",
    config: { budgets: [{ tokens: 100, per: "week", action: "stop" }] },
    key: "budgets[0].per",
  },
];

test("checkConfig: a good file or none has no findings; a bad value in each section is named by its key", () => {
  const home = mkdtempSync(join(tmpdir(), "roost-config-"));
  try {
    assert.deepEqual(checkConfig(home), []);
    writeFileSync(
      join(home, "roost.json"),
      JSON.stringify({
        concierge: { answer: "routine" },
        agentTools: false,
        web: { enabled: false, port: 8080, host: "::1" },
      }),
    );
    assert.deepEqual(checkConfig(home), []);
    writeFileSync(join(home, "roost.json"), "{not json");
    assert.match(checkConfig(home)[0]!.message, /roost\.json: not valid JSON/);
    for (const { section, config, key } of BAD_VALUES) {
      writeFileSync(join(home, "roost.json"), JSON.stringify(config));
      const findings = checkConfig(home);
      assert.deepEqual(
        findings.map((f) => f.key),
        [key],
        section,
      );
      assert.ok(findings[0]!.message.includes(`roost.json: ${key} `), findings[0]!.message);
    }
    // Many bad keys in one file: each is named, none hidden by another.
    for (const { config, keys } of badFiles()) {
      writeFileSync(join(home, "roost.json"), JSON.stringify(config));
      assert.deepEqual(
        checkConfig(home)
          .map((f) => f.key)
          .sort(),
        [...keys].sort(),
      );
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

/** The bad values in as few files as hold them: no two in one file set the same top-level key. */
function badFiles(): { config: Record<string, unknown>; keys: string[] }[] {
  const files: { config: Record<string, unknown>; keys: string[] }[] = [];
  for (const { config, key } of BAD_VALUES) {
    const fits = files.find((f) => Object.keys(config).every((k) => !(k in f.config)));
    if (fits) {
      Object.assign(fits.config, config);
      fits.keys.push(key);
    } else files.push({ config: { ...config }, keys: [key] });
  }
  return files;
}

test("the daemon says at start which key of roost.json is bad, for each section, and goes on", async () => {
  // A daemon for each file of bad values, side by side.
  await Promise.all(
    badFiles().map(async ({ config, keys }) => {
      const home = mkdtempSync(join(tmpdir(), "roost-config-"));
      try {
        writeFileSync(join(home, "roost.json"), JSON.stringify(config));
        // Any command starts the daemon in the background; it answers though the file is bad.
        const listed = await runCli(home, ["ls", "--json"]);
        assert.equal(listed.code, 0, `${keys.join(", ")}: ${listed.stderr}`);
        const log = statePaths(home).log;
        for (const key of keys)
          await waitFor(`the daemon's log naming ${key}`, async () =>
            existsSync(log) && readFileSync(log, "utf8").includes(`roost.json: ${key} `) ? true : undefined,
          );
      } finally {
        await runCli(home, ["shutdown", "--all"]);
        rmSync(home, { recursive: true, force: true });
      }
    }),
  );
});

test("roost doctor names each bad key of roost.json, says where to fix it, and fails; a good file is ok", async () => {
  // A home no daemon has started: doctor checks it as it is.
  const home = mkdtempSync(join(tmpdir(), "roost-config-"));
  try {
    writeFileSync(join(home, "roost.json"), JSON.stringify({ agentMaxDepth: -1, worktree: "always" }));
    const sick = await runCli(home, ["doctor", "--json"]);
    assert.equal(sick.code, 1, sick.stderr);
    const config = (
      JSON.parse(sick.stdout).findings as { check: string; status: string; found: string; remedy?: string }[]
    ).find((f) => f.check === "config")!;
    assert.equal(config.status, "problem");
    assert.match(config.found, /roost\.json: agentMaxDepth must be a whole number, 0 or more/);
    assert.match(config.found, /roost\.json: worktree must be true, false or "auto"/);
    assert.match(config.remedy!, /fix those keys in .*roost\.json/);
    const human = await runCli(home, ["doctor"]);
    assert.match(human.stdout, /problem +config: .*agentMaxDepth/);

    writeFileSync(join(home, "roost.json"), JSON.stringify({ agentMaxDepth: 2, worktree: "auto" }));
    const well = await runCli(home, ["doctor", "--json"]);
    const ok = (JSON.parse(well.stdout).findings as { check: string; status: string }[]).find(
      (f) => f.check === "config",
    )!;
    assert.equal(ok.status, "ok");
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
