import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DaemonClient } from "pi-roost/client";
import type { JobRow } from "pi-roost/protocol";

const warrenDir = fileURLToPath(new URL("../..", import.meta.url));
/** roost's command, as installed beside warren (the workspace's build). */
const roostBin = join(
  dirname(fileURLToPath(import.meta.resolve("pi-roost/agent"))),
  "..",
  "..",
  "bin",
  "roost.js",
);

/** `warren serve --port 0`, from the source; resolves once it listens, with its URL. */
export async function startWarrenServe(): Promise<{ url: string; stop(): void }> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", join(warrenDir, "src", "cli", "main.ts"), "serve", "--port", "0"],
    { cwd: warrenDir, stdio: ["ignore", "pipe", "inherit"] },
  );
  const stop = (): void => void child.kill("SIGKILL");
  process.once("exit", stop);
  let text = "";
  for await (const chunk of child.stdout!) {
    text += String(chunk);
    const url = /listening on (\S+)/.exec(text)?.[1];
    if (url) return { url, stop };
  }
  throw new Error(`warren serve did not start: ${text}`);
}

/** A roost home whose roost.json has the `warren-play` profile: `warren play` from the source. */
export function playHome(): { home: string; remove(): void } {
  const home = mkdtempSync(join(tmpdir(), "warren-play-"));
  const profile = {
    command: ["/bin/sh", "-c", `exec "$0" --import tsx src/cli/main.ts play $1`, process.execPath],
    task: "argv",
    protocol: true,
    cwd: warrenDir,
  };
  writeFileSync(join(home, "roost.json"), JSON.stringify({ agentProfiles: { "warren-play": profile } }));
  return { home, remove: () => rmSync(home, { recursive: true, force: true, maxRetries: 5 }) };
}

/** `roost ARGS` on a home; resolves with its exit code and output. */
export function roost(
  home: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [roostBin, ...args], {
      env: { ...process.env, ROOST_HOME: home },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** The job's row once `ready` holds for it, read over a controller connection. */
export async function rowWhen(
  home: string,
  id: string,
  ready: (row: JobRow) => boolean,
  timeoutMs = 60_000,
): Promise<JobRow> {
  const deadline = Date.now() + timeoutMs;
  let last: JobRow | undefined;
  for (;;) {
    const client = await DaemonClient.connect({ home, start: true }).catch(() => undefined);
    try {
      for (; client?.isOpen && Date.now() < deadline; ) {
        last = (await client.call("list", {})).rows.find((r) => r.id === id);
        if (last && ready(last)) return last;
        await new Promise((r) => setTimeout(r, 50));
      }
    } catch {
      // The daemon went away (a test killed it): connect again.
    } finally {
      client?.close();
    }
    if (Date.now() > deadline) throw new Error(`row ${id} never got ready; last: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The engineer's bridge_repair plan, read from an observation's text (as a row asks it, or pi reads it). */
export function engineerReply(question: string): string {
  const carry = /You carry: ([^(]*)\(/.exec(question)?.[1] ?? "";
  const items = /Items here: ([^\n]*)/.exec(question)?.[1] ?? "";
  const woke = question.split("\n").find((line) => line.startsWith("[t=")) ?? "";
  const atBridge = /\) at [^(]*bridge[^(]*\(/i.test(woke);
  if (!carry.includes("toolbox")) return items.includes("toolbox-1") ? "take toolbox-1" : "move_to workshop";
  if (!atBridge) return "move_to bridge";
  return items.includes("plank") ? "repair" : "sleep 2000";
}
