/**
 * `worktreeSetup` run in a new worktree before its agent starts: files copied from the checkout
 * the job came from (`.env` and the like, which git does not carry), then a command, its output
 * appended to the job's terminal log. A failing command is an error carrying its last lines.
 */
import { spawn } from "node:child_process";
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import type { WorktreeSetup } from "../../home/worktree-settings.js";
import { RoostError } from "../../protocol/index.js";

/** Lines of a failed setup's output the row's error carries. */
const LAST_LINES = 5;

function lastLines(log: string, from: number): string {
  let text = "";
  try {
    text = readFileSync(log).subarray(from).toString("utf8");
  } catch {
    text = "";
  }
  return text.trimEnd().split("\n").slice(-LAST_LINES).join("\n");
}

function run(
  command: string[] | string,
  cwd: string,
  env: Record<string, string>,
  log: string,
): Promise<number> {
  const [file, ...args] = typeof command === "string" ? ["/bin/sh", "-c", command] : command;
  const fd = openSync(log, "a", 0o600);
  return new Promise<number>((resolve) => {
    const child = spawn(file!, args, { cwd, env, stdio: ["ignore", fd, fd] });
    child.on("error", (err) => {
      writeSync(fd, `roost: worktree setup could not run ${file}: ${err.message}\n`);
      resolve(127);
    });
    child.on("close", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  }).finally(() => closeSync(fd));
}

/** Copies the setup's files, runs its command; `bad_request` with the command's last lines when it fails. */
export async function runWorktreeSetup(
  setup: WorktreeSetup,
  from: string,
  worktree: string,
  env: Record<string, string>,
  log: string,
): Promise<void> {
  for (const file of setup.copy) {
    const source = join(from, file);
    if (!existsSync(source)) continue;
    mkdirSync(dirname(join(worktree, file)), { recursive: true });
    copyFileSync(source, join(worktree, file));
  }
  if (setup.command === null) return;
  const start = existsSync(log) ? readFileSync(log).length : 0;
  const code = await run(setup.command, worktree, env, log);
  if (code !== 0)
    throw new RoostError(
      "bad_request",
      `worktree setup failed (exit code ${code}):\n${lastLines(log, start) || "(no output)"}`,
    );
}
