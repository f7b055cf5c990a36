import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { WARREN_PLAY_ENV } from "./pi-extension.js";
import { shellWord } from "./shell-word.js";

/** warren's pi extension, beside this module (the source when run from it, else the build). */
export function piExtensionPath(): string {
  const source = import.meta.url.endsWith(".ts");
  return fileURLToPath(new URL(source ? "./pi-extension.ts" : "./pi-extension.js", import.meta.url));
}

/** pi's command-line entry, as warren installs it. */
export function piCliPath(): string {
  return join(dirname(fileURLToPath(import.meta.resolve("@mariozechner/pi-coding-agent"))), "cli.js");
}

/**
 * A roost profile (for roost.json's `agentProfiles`) that runs pi as a roost job playing a warren
 * agent: roost's pi extension makes it a job, warren's plays. Its task is `SERVER RUN AGENT`.
 */
export function warrenPiProfile(): { command: string; task: "argv"; protocol: true } {
  const roostExtension = fileURLToPath(import.meta.resolve("pi-roost/pi"));
  const argv = [process.execPath, piCliPath(), "-e", roostExtension, "-e", piExtensionPath()]
    .map(shellWord)
    .join(" ");
  // roost hands the task over as "$1"; the shift keeps it off pi's command line.
  return {
    command: `${WARREN_PLAY_ENV}="$1"; shift; export ${WARREN_PLAY_ENV}; exec ${argv} --session "$ROOST_JOB_DIR/session.jsonl"`,
    task: "argv",
    protocol: true,
  };
}
