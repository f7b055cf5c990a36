/**
 * The real coding-agent CLIs (Claude Code, Codex, pi's TUI), run offline against fake model servers
 * the tests own. `.ci/run` installs them (pinned) into a cache folder outside node_modules;
 * `ROOST_TEST_CLIS` names another. Each profile of a built-in's name overrides it: its own HOME,
 * config and model server.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";
import { type Message, type RawConnection, startTestDaemon, type TestDaemon, waitFor } from "./daemon.js";
import type { FakeModel } from "./fake-models.js";
import { rowWhen } from "./terminal.js";

export const CLI_VERSIONS = { claude: "2.1.197", codex: "0.171.0", pi: "0.73.1" } as const;

const PACKAGES = {
  claude: "@anthropic-ai/claude-code",
  codex: "@openai/codex",
  pi: "@mariozechner/pi-coding-agent",
} as const;

const cacheDir = process.env.ROOST_TEST_CLIS ?? join(homedir(), ".cache", "roost-test-clis");

/** The CLI's program, or a skip message that says how to install it. */
export function cliProgram(name: keyof typeof CLI_VERSIONS): { program: string } | { skip: string } {
  const program = join(cacheDir, "node_modules", ".bin", name);
  if (existsSync(program)) return { program };
  return {
    skip:
      `${name} is not installed in ${cacheDir}: .ci/run installs it ` +
      `(npm install --prefix ${cacheDir} ${PACKAGES[name]}@${CLI_VERSIONS[name]})`,
  };
}

/** A folder for a project; `git` makes it a repository (Codex asks to trust those). */
export function projectFolder(git = false): string {
  const dir = mkdtempSync(join(tmpdir(), "roost-cli-project-"));
  if (git) execFileSync("git", ["init", "-q", dir]);
  return dir;
}

const CLAUDE_KEY = "sk-ant-roost-test-key-0123456789";

/** Claude Code with its first-run screens done and `trusted` folders trusted. */
export function claudeProfile(program: string, modelUrl: string, trusted: string[]) {
  const home = mkdtempSync(join(tmpdir(), "roost-claude-home-"));
  mkdirSync(join(home, ".claude"));
  writeFileSync(join(home, ".claude", "settings.json"), JSON.stringify({ theme: "dark" }));
  writeFileSync(
    join(home, ".claude.json"),
    JSON.stringify({
      hasCompletedOnboarding: true,
      lastOnboardingVersion: CLI_VERSIONS.claude,
      // Claude Code keeps the last 20 characters of an approved key.
      customApiKeyResponses: { approved: [CLAUDE_KEY.slice(-20)], rejected: [] },
      projects: Object.fromEntries(trusted.map((dir) => [dir, { hasTrustDialogAccepted: true }])),
    }),
  );
  return {
    command: [program],
    task: "type",
    protocol: false,
    reader: "claude",
    env: {
      HOME: home,
      ANTHROPIC_BASE_URL: modelUrl,
      ANTHROPIC_API_KEY: CLAUDE_KEY,
      DISABLE_TELEMETRY: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_ERROR_REPORTING: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    },
  };
}

/** Codex on a fake Responses server, asking before escalated commands, `trusted` folders trusted. */
export function codexProfile(program: string, modelUrl: string, trusted: string[]) {
  const home = mkdtempSync(join(tmpdir(), "roost-codex-home-"));
  const codexHome = join(home, "codex");
  mkdirSync(codexHome);
  const projects = trusted
    .map((dir) => `[projects.${JSON.stringify(dir)}]\ntrust_level = "trusted"\n`)
    .join("\n");
  writeFileSync(
    join(codexHome, "config.toml"),
    `model = "fake-model"
model_provider = "fake"
approval_policy = "on-request"
check_for_update_on_startup = false

[features]
daemon_auto_start = false

[model_providers.fake]
name = "fake"
base_url = "${modelUrl}/v1"
wire_api = "responses"
env_key = "ROOST_TEST_MODEL_KEY"

${projects}`,
  );
  return {
    command: [program],
    task: "type",
    protocol: false,
    reader: "codex",
    env: { HOME: home, CODEX_HOME: codexHome, ROOST_TEST_MODEL_KEY: "fake" },
  };
}

/** pi's TUI, offline, on a fake chat-completions server. */
export function piProfile(program: string, modelUrl: string, _trusted: string[]) {
  const home = mkdtempSync(join(tmpdir(), "roost-pi-home-"));
  const agentDir = join(home, "pi");
  mkdirSync(agentDir);
  writeFileSync(
    join(agentDir, "models.json"),
    JSON.stringify({
      providers: {
        fake: {
          baseUrl: `${modelUrl}/v1`,
          api: "openai-completions",
          apiKey: "x",
          compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
          models: [{ id: "fake-model", reasoning: false, contextWindow: 128000, maxTokens: 4096 }],
        },
      },
    }),
  );
  return {
    command: [program, "--model", "fake/fake-model"],
    task: "type",
    protocol: false,
    reader: "pi",
    env: { HOME: home, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" },
  };
}

/** A profile of the helpers above: its environment holds the CLI's own HOME. */
type CliProfile = { env: Record<string, string> };

/** A suite's real CLI: its fake model, a daemon with its profile (under the built-in's name), a connection. */
export interface RealCliSuite {
  readonly model: FakeModel;
  readonly daemon: TestDaemon;
  readonly profile: CliProfile;
  /** The suite's connection; a test that restarts the daemon connects it again. */
  conn: RawConnection;
}

/**
 * Starts, before the suite's tests, the CLI's fake model and a daemon whose profile of the CLI's name
 * trusts the folders `trusted` gives (made then); ends them after.
 */
export function realCliSuite(
  name: keyof typeof CLI_VERSIONS,
  program: string,
  startModel: () => Promise<FakeModel>,
  profileOf: (program: string, modelUrl: string, trusted: string[]) => CliProfile,
  trusted: () => string[] = () => [],
): RealCliSuite {
  const suite = {} as { -readonly [K in keyof RealCliSuite]: RealCliSuite[K] };
  before(async () => {
    suite.model = await startModel();
    suite.profile = profileOf(program, suite.model.url, trusted());
    suite.daemon = await startTestDaemon({ config: { agentProfiles: { [name]: suite.profile } } });
    suite.conn = await suite.daemon.connect();
  });
  after(async () => {
    suite.conn?.close();
    await suite.daemon?.stop();
    await suite.model?.close();
  });
  return suite;
}

/** Whether a CLI's row holds the fake model's answer to `TASK task`. */
export const answered = (task: string) => (row: Message) =>
  row.state === "done" && row.summary === `ANSWER: ${task}`;

/**
 * Replies `TASK task` to a CLI's job (starting it again if it ended) and waits for the answer. While
 * its program starts again a reply is refused untyped (`unsupported`), or held when it came before
 * the program showed its prompt (and dropped then): it is sent again.
 */
export async function askJob(
  conn: RawConnection,
  id: string,
  task: string,
  timeoutMs: number,
): Promise<Message> {
  const answer = await waitFor(
    "the reply to be typed",
    async () => {
      const reply = await conn.request("reply", { id, text: `TASK ${task}` });
      if (reply.ok && reply.result.held) {
        await conn.request("reply", { id, held: "drop" });
        return undefined;
      }
      return reply.ok || reply.code !== "unsupported" ? reply : undefined;
    },
    timeoutMs,
  );
  if (!answer.ok) throw new Error(`the reply was refused: ${JSON.stringify(answer)}`);
  return rowWhen(conn, id, answered(task), timeoutMs);
}

/** A suite as `realCliSuite` makes it, working in one project folder its profile trusts (made before its tests, removed after). */
export function realCliProjectSuite(
  name: keyof typeof CLI_VERSIONS,
  program: string,
  startModel: () => Promise<FakeModel>,
  profileOf: (program: string, modelUrl: string, trusted: string[]) => CliProfile,
): RealCliSuite & { readonly cwd: string } {
  let cwd = "";
  const suite = realCliSuite(name, program, startModel, profileOf, () => [(cwd = projectFolder())]);
  after(() => {
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });
  return Object.defineProperty(suite, "cwd", { get: () => cwd }) as RealCliSuite & { readonly cwd: string };
}
