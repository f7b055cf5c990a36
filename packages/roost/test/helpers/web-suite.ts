import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CLI, startTestDaemon, TEST_PROFILES, type TestDaemon, waitFor } from "./daemon.js";
import { TERMINAL_PROFILES } from "./terminal.js";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

/**
 * The agents the web tests run: the protocol test agent, a terminal agent that asks `[y/N]`, a screen
 * with markup on it, a prompt to attach to and type into, a program that takes a long paste raw, and
 * a protocol job whose process only sleeps (a test's own connection speaks for it: the concierge).
 */
export function webProfiles(logDir: string) {
  return {
    agentProfiles: {
      asker: {
        command: [process.execPath, fixture("client-agent.mjs")],
        task: "type",
        protocol: true,
        env: { FIXTURE_LOG_DIR: logDir },
      },
      proceed: TERMINAL_PROFILES.proceed,
      markup: {
        command: [
          "/bin/sh",
          "-c",
          "printf '<img src=x onerror=window.pwned=3><b>bold</b> on screen\\n'; exec sleep 600",
        ],
        task: "argv",
        protocol: false,
      },
      typist: { command: ["/bin/sh", fixture("terminal-typist.sh")], task: "argv", protocol: false },
      rawCount: { command: ["/bin/sh", fixture("terminal-raw-count.sh")], task: "argv", protocol: false },
      mute: TEST_PROFILES.mute,
    },
  };
}

/** `roost web` as built, on a free port, with the address it printed. */
export interface TestWeb {
  /** `http://127.0.0.1:PORT`. */
  base: string;
  /** The printed address, with its token. */
  url: string;
  token: string;
  stdout(): string;
  stderr(): string;
  stop(): Promise<void>;
}

export async function startWeb(home: string, args: string[] = []): Promise<TestWeb> {
  const child: ChildProcess = spawn(process.execPath, [CLI, "web", "--port", "0", ...args], {
    env: { ...process.env, ROOST_HOME: home },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.once("exit", () => child.kill("SIGKILL"));
  const url = await waitFor(
    "roost web's address",
    () => {
      if (child.exitCode !== null) throw new Error(`roost web exited: ${stderr}`);
      return /open (http:\/\/\S+)/.exec(stdout)?.[1];
    },
    60_000,
  );
  const parsed = new URL(url);
  return {
    base: parsed.origin,
    url,
    token: parsed.searchParams.get("token") ?? "",
    stdout: () => stdout,
    stderr: () => stderr,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** A daemon with the web profiles, and `roost web` on it; `stop` ends both. */
export async function startWebFleet(): Promise<{
  daemon: TestDaemon;
  web: TestWeb;
  logDir: string;
  stop(): Promise<void>;
}> {
  const logDir = mkdtempSync(join(tmpdir(), "roost-web-log-"));
  const daemon = await startTestDaemon({ config: webProfiles(logDir) });
  const web = await startWeb(daemon.home);
  return {
    daemon,
    web,
    logDir,
    stop: async () => {
      await web.stop();
      await daemon.stop();
    },
  };
}
