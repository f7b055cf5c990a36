import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";

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
