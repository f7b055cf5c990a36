import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { statePaths } from "../home/paths.js";
import { roostCommand } from "../home/roost-command.js";
import { RoostError } from "../protocol/errors.js";
import { Connection } from "./connection.js";

/** What the daemon's log says of its last start, when it says it could not: `: why`. */
function whyNotStarted(home: string): string {
  try {
    const log = readFileSync(statePaths(home).log, "utf8");
    const last = log.trimEnd().split("\n").at(-1) ?? "";
    const why = /(?:could not start|refused to start): (.*)$/.exec(last);
    return why ? `: ${why[1]}` : "";
  } catch {
    return "";
  }
}

/** How long a daemon that exited is still given to show its socket (another one may have won). */
const EXITED_GRACE_MS = 1000;

/**
 * Starts `roost daemon` for `home` detached from this process, and waits until its socket answers.
 * Two callers starting one at once is fine: the second daemon refuses and the first one answers.
 */
export async function startDaemonInBackground(home: string, socketPath: string, timeoutMs: number) {
  const child = spawn(process.execPath, [...roostCommand(), "daemon"], {
    detached: true,
    stdio: "ignore",
    env: { ...process.env, ROOST_HOME: home },
  });
  let exitedAt: number | undefined;
  let exitCode: number | null = null;
  child.once("exit", (code) => {
    exitedAt = Date.now();
    exitCode = code;
  });
  child.once("error", () => (exitedAt = Date.now()));
  child.unref();
  const deadline = Date.now() + timeoutMs;
  for (let wait = 20; ; wait = Math.min(wait * 2, 200)) {
    try {
      (await Connection.open(socketPath)).close();
      return;
    } catch {
      const now = Date.now();
      if (exitedAt !== undefined && now - exitedAt > EXITED_GRACE_MS) {
        throw new RoostError(
          "disconnected",
          `the daemon did not start (exit code ${exitCode})${whyNotStarted(home)}`,
        );
      }
      if (now > deadline) throw new RoostError("disconnected", `the daemon did not answer on ${socketPath}`);
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
