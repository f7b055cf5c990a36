import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { waitFor } from "./wait-for.js";

const run = promisify(execFile);

/** Whether tmux can be run here. */
export function hasTmux(): boolean {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** A tmux server of the test's own (`-L` with a unique name), so that nobody's sessions are touched. */
export function tmuxServer(name: string): (...args: string[]) => Promise<{ stdout: string; stderr: string }> {
  const server = `${name}-${process.pid}-${Date.now()}`;
  return (...args) => run("tmux", ["-L", server, ...args]);
}

/**
 * Reading a tmux pane: its text now, and a wait (30 s unless told) for text that satisfies
 * `predicate` (the error shows the pane).
 */
export function paneReader(
  tmux: (...args: string[]) => Promise<{ stdout: string }>,
  target: string,
): {
  capture(): Promise<string>;
  waitForPane(what: string, predicate: (text: string) => boolean, timeoutMs?: number): Promise<string>;
} {
  const capture = async () => (await tmux("capture-pane", "-p", "-t", target)).stdout;
  const waitForPane = (what: string, predicate: (text: string) => boolean, timeoutMs?: number) =>
    waitFor(
      what,
      async () => {
        const text = await capture();
        return predicate(text) ? text : undefined;
      },
      timeoutMs,
    ).catch(async (error: Error) => {
      throw new Error(`${error.message}; the pane:\n${await capture().catch(() => "")}`);
    });
  return { capture, waitForPane };
}
