import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";
import { isProcessAlive } from "../../src/home/process.js";
import { TEST_PROFILES, type TestDaemon, waitFor } from "./daemon.js";

/**
 * The fault suite's profiles: the daemon tests' ones, and `typist`, a terminal agent that asks for a
 * line again and again (a reply is typed only where an agent asks) and writes every line typed into
 * it to `typed.txt` in its job folder (what was typed, and how often).
 */
export const FAULT_PROFILES = {
  ...TEST_PROFILES,
  typist: {
    command: [
      "/bin/sh",
      "-c",
      'stty -echo; n=0; while :; do n=$((n+1)); printf "Line %s? " "$n"; IFS= read -r line || exit 0; printf "%s\\n" "$line" >> "$ROOST_JOB_DIR/typed.txt"; done',
    ],
    task: "argv",
    protocol: false,
  },
} as const;

/** Whether a process lives (a zombie counts as gone). */
export function isAlive(pid: number): boolean {
  if (!isProcessAlive(pid)) return false;
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** The pid of the process host the daemon is connected to (waiting until it is). */
export async function hostPidOf(daemon: TestDaemon): Promise<number> {
  return waitFor("the daemon connected to its host", async () => {
    const c = await daemon.connect();
    try {
      return ((await c.request("stats")).result.hostPid as number | null) ?? undefined;
    } finally {
      c.close();
    }
  });
}

/**
 * SIGKILLs the process host (its jobs die with it) and waits until the daemon, on the new host it
 * starts, lists each of the jobs it ran `interrupted`.
 */
export async function killHost(daemon: TestDaemon): Promise<void> {
  const host = await hostPidOf(daemon);
  process.kill(host, "SIGKILL");
  await waitForExit(host);
  await waitFor("the daemon on a new host", async () =>
    (await hostPidOf(daemon)) !== host ? true : undefined,
  );
}

/** Resolves once the terminal job shows a question on its screen: only then is a reply typed, not held. */
export async function untilAsking(daemon: TestDaemon, id: string): Promise<void> {
  await waitFor(`job ${id} to ask for a line`, async () => {
    const c = await daemon.connect();
    try {
      const row = (await c.request("list")).result.rows.find((r: { id: string }) => r.id === id);
      return row?.lifecycle === "running" && row.waitingFor === "question" ? true : undefined;
    } finally {
      c.close();
    }
  });
}

/** Resolves once the process is gone. */
export function waitForExit(pid: number, timeoutMs = 30_000): Promise<true> {
  return waitFor(`pid ${pid} to exit`, async () => (isAlive(pid) ? undefined : true), timeoutMs);
}

/** The lines the `typist` job was typed, in order. */
export function typedLines(daemon: TestDaemon, jobId: string): string[] {
  try {
    return readFileSync(join(daemon.stateDir, "jobs", jobId, "typed.txt"), "utf8")
      .split("\n")
      .filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * Puts a test's figures in its report as one `figures {...}` diagnostic line: `npm run faults`
 * gathers them into its summary.
 */
export function reportFigures(t: TestContext, figures: Record<string, number | string>): void {
  t.diagnostic(`figures ${JSON.stringify(figures)}`);
}

/** A small tmpfs to fill, or why there is none here (mounting one needs root). */
export function smallDisk(size = "8m"): { path: string; unmount(): void } | string {
  if (process.getuid?.() !== 0)
    return "a full disk is simulated on a small tmpfs, and mounting one needs root";
  const path = mkdtempSync(join(tmpdir(), "roost-full-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", path], { stdio: "ignore" });
  } catch (err) {
    rmSync(path, { recursive: true, force: true });
    return `could not mount a tmpfs to fill: ${(err as Error).message}`;
  }
  return {
    path,
    unmount: () => {
      execFileSync("umount", ["-l", path], { stdio: "ignore" });
      rmSync(path, { recursive: true, force: true });
    },
  };
}

/** Writes zeros to `file` until the disk is full. */
export function fill(file: string): void {
  const fd = openSync(file, "w");
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
  } finally {
    closeSync(fd);
  }
}
