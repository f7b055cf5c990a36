import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Hub } from "../../src/hub/hub.js";
import { type RawConnection, startTestDaemon, type TestDaemon } from "./daemon.js";
import { HeadlessTerminal } from "./hub-terminal.js";

const AGENT = fileURLToPath(new URL("./hub-agent.mjs", import.meta.url));

/** The profiles the hub's tests dispatch from: `agent`, the scripted protocol agent. */
export const HUB_TEST_CONFIG = {
  agentProfiles: {
    agent: { command: [process.execPath, AGENT], task: "type", protocol: true },
  },
};

export interface HubHarness {
  daemon: TestDaemon;
  terminal: HeadlessTerminal;
  hub: Hub;
  /** A raw connection of the test's own, to dispatch and reply around the hub. */
  raw: RawConnection;
  /** Waits until the screen's text satisfies `predicate`; the error shows the last screen. */
  waitForScreen(what: string, predicate: (text: string) => boolean, timeoutMs?: number): Promise<string>;
  /** The line of the screen that mentions `text`, or undefined. */
  lineWith(text: string): Promise<string | undefined>;
  /** The texts a job's agent received, in order. */
  received(id: string): string[];
  close(): Promise<void>;
}

/** A real daemon with the test profiles, and a hub on it drawing into a headless terminal. */
export async function startHubHarness(
  columns = 100,
  rows = 30,
  options: { attach?: (id: string, terminal: HeadlessTerminal) => Promise<void>; config?: object } = {},
): Promise<HubHarness> {
  const daemon = await startTestDaemon({ config: options.config ?? HUB_TEST_CONFIG });
  const terminal = new HeadlessTerminal(columns, rows);
  const attach = options.attach;
  const hub = new Hub({
    home: daemon.home,
    terminal,
    feedPollMs: 200,
    ...(attach ? { attach: (id: string) => attach(id, terminal) } : {}),
  });
  await hub.start();
  const raw = await daemon.connect();
  const waitForScreen = async (what: string, predicate: (text: string) => boolean, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = await terminal.text();
      if (predicate(text)) return text;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen:\n${text}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return {
    daemon,
    terminal,
    hub,
    raw,
    waitForScreen,
    lineWith: async (text) => (await terminal.screen()).find((line) => line.includes(text)),
    received: (id) => {
      const file = join(daemon.stateDir, "jobs", id, "received.jsonl");
      if (!existsSync(file)) return [];
      return readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { text: string }).text);
    },
    close: async () => {
      hub.stop();
      raw.close();
      await daemon.stop();
    },
  };
}
