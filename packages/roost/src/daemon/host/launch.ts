/**
 * Finding the process host of a state folder: connect to it, or start it (detached, in its own
 * session, so it outlives whoever started it) and connect once it serves. Racing starters end up
 * on one host: the host takes a lock, and a host that loses it leaves at once.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync } from "node:fs";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { RoostError } from "../../protocol/errors.js";
import type { ProcessHost } from "./api.js";
import { HostClient } from "./client.js";
import { hostLogPath, hostSocketPath } from "./files.js";
import { ANOTHER_HOST_EXIT_CODE } from "./protocol.js";

const START_TIMEOUT_MS = 15_000;
const HOST_LOG_MAX_BYTES = 1024 * 1024;
/** How long to wait for the host that another starter brought up before starting one again. */
const YIELD_PATIENCE_MS = 1000;

export interface ConnectHostOptions {
  stateDir: string;
  /** false: the connection is told no job's screens (it reads what it needs by request). */
  screens?: boolean;
}

export async function connectHost(options: ConnectHostOptions): Promise<ProcessHost> {
  const socketPath = hostSocketPath(options.stateDir);
  const deadline = Date.now() + START_TIMEOUT_MS;
  let starting: StartedHost | null = null;
  let wait = 10;
  for (;;) {
    try {
      const host = await HostClient.connect(socketPath, { screens: options.screens });
      host.fresh = starting !== null;
      return host;
    } catch (err) {
      if (!isNotServing(err)) throw err;
    }
    if (starting?.failed) {
      throw new RoostError(
        "internal",
        `the process host did not start (exit ${starting.exitCode}): ${logTail(options.stateDir)}`,
      );
    }
    // No host yet, or ours found another that still does not serve a while later: start one.
    if (!starting || Date.now() - (starting.yieldedAt ?? Number.POSITIVE_INFINITY) > YIELD_PATIENCE_MS) {
      starting = startHost(options.stateDir);
    }
    if (Date.now() > deadline) {
      throw new RoostError("internal", `the process host did not answer on ${socketPath} in time`);
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
    wait = Math.min(wait * 2, 200);
  }
}

function isNotServing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  // A socket that is missing or stale, or a host that is just ending.
  return code === "ENOENT" || code === "ECONNREFUSED" || code === "disconnected";
}

interface StartedHost {
  exitCode: number | null;
  /** Exited for a reason other than finding another host. */
  failed: boolean;
  /** When it exited because another host holds the lock. */
  yieldedAt: number | null;
}

function startHost(stateDir: string): StartedHost {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const logPath = hostLogPath(stateDir);
  // The host log only grows by a few lines a start; past its cap it starts over, one old copy kept.
  if ((statSync(logPath, { throwIfNoEntry: false })?.size ?? 0) > HOST_LOG_MAX_BYTES) {
    renameSync(logPath, `${logPath}.1`);
  }
  const log = openSync(logPath, "a", 0o600);
  const entry = hostEntry();
  let child: ChildProcess;
  try {
    // detached: a session of its own, so no signal to the starter's process group reaches it. Its
    // folder is the package's, where a loader named in execArgv (tsx) resolves as it did here.
    child = spawn(process.execPath, [...hostExecArgv(process.execArgv), entry, stateDir], {
      detached: true,
      stdio: ["ignore", log, log],
      cwd: dirname(entry),
    });
  } finally {
    closeSync(log);
  }
  const started: StartedHost = { exitCode: null, failed: false, yieldedAt: null };
  child.on("error", () => {
    started.failed = true;
  });
  child.on("exit", (code) => {
    started.exitCode = code;
    started.failed = code !== ANOTHER_HOST_EXIT_CODE;
    if (!started.failed) started.yieldedAt = Date.now();
  });
  child.unref();
  return started;
}

/** The host's entry beside this file, with this file's extension: `.ts` from source, `.js` built. */
function hostEntry(): string {
  const here = fileURLToPath(import.meta.url);
  return join(dirname(here), `main${extname(here)}`);
}

/** This process's node flags (a loader such as tsx) without those that are about this process. */
export function hostExecArgv(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i]!;
    if (["-e", "--eval", "-p", "--print"].includes(flag)) {
      i++;
      continue;
    }
    if (/^--(test|inspect|watch|eval|print)/.test(flag) || /^-[ep]$/.test(flag)) continue;
    kept.push(flag);
  }
  return kept;
}

function logTail(stateDir: string): string {
  try {
    return readFileSync(hostLogPath(stateDir), "utf8").trim().split("\n").slice(-5).join(" | ");
  } catch {
    return "no host log";
  }
}
