import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentProfile } from "./agent-profile.js";

/** The name of the built-in profile that runs pi's interactive TUI as a job. */
export const PI_PROFILE = "pi";

/** A word for `/bin/sh -c`: quoted whole. */
function shellWord(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** roost's pi extension, beside this module (the source when run from it, else the build). */
export function piExtensionPath(): string {
  const source = import.meta.url.endsWith(".ts");
  return fileURLToPath(new URL(source ? "../pi/extension.ts" : "../pi/extension.js", import.meta.url));
}

/** pi's command line program, from the installed `@mariozechner/pi-coding-agent`. */
let cliPath: string | undefined;

export function piCliPath(): string {
  // Its main module (dist/index.js) sits beside the program (dist/cli.js). Resolved once: every
  // dispatch asks, and resolving goes through the module loader.
  cliPath ??= join(dirname(fileURLToPath(import.meta.resolve("@mariozechner/pi-coding-agent"))), "cli.js");
  return cliPath;
}

/**
 * The built-in `pi` profile: pi's TUI under the job's terminal (so attaching shows the real pi),
 * with roost's extension (the job's worker) and a session file of its own in the job's folder. The
 * task is its first reply. A profile of the same name in roost.json takes its place.
 */
export function piProfile(): AgentProfile {
  const argv = [process.execPath, piCliPath(), "-e", piExtensionPath()].map(shellWord).join(" ");
  return {
    command: `exec ${argv} --session "$ROOST_JOB_DIR/session.jsonl"`,
    task: "type",
    protocol: true,
  };
}
