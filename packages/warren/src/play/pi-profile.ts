import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { WARREN_PLAY_ENV } from "./pi-extension.js";

/** A word for `/bin/sh -c`: quoted whole. */
function shellWord(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** This extension, beside this module (the source when run from it, else the build). */
function extensionPath(): string {
  const source = import.meta.url.endsWith(".ts");
  return fileURLToPath(new URL(source ? "./pi-extension.ts" : "./pi-extension.js", import.meta.url));
}

/**
 * A roost profile (for roost.json's `agentProfiles`) that runs pi as a roost job playing a warren
 * agent: roost's pi extension makes it a job, warren's plays. Its task is `SERVER RUN AGENT`.
 */
export function warrenPiProfile(): { command: string; task: "argv"; protocol: true } {
  const piCli = join(dirname(fileURLToPath(import.meta.resolve("@mariozechner/pi-coding-agent"))), "cli.js");
  const roostExtension = fileURLToPath(import.meta.resolve("pi-roost/pi"));
  const argv = [process.execPath, piCli, "-e", roostExtension, "-e", extensionPath()]
    .map(shellWord)
    .join(" ");
  // roost hands the task over as "$1"; the shift keeps it off pi's command line.
  return {
    command: `${WARREN_PLAY_ENV}="$1"; shift; export ${WARREN_PLAY_ENV}; exec ${argv} --session "$ROOST_JOB_DIR/session.jsonl"`,
    task: "argv",
    protocol: true,
  };
}
