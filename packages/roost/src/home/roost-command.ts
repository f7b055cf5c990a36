import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** A file of the build, by its path under dist/ (this module is one folder under it); null from source or where it is not. */
function builtFile(file: string): string | null {
  if (import.meta.url.endsWith(".ts")) return null;
  const path = fileURLToPath(new URL(`../${file}`, import.meta.url));
  return existsSync(path) ? path : null;
}

/** The built command's main: its bundle (scripts/bundles.mjs), else its module as tsc built it. */
export function builtMain(): string | null {
  return builtFile("cli/main.bundle.mjs") ?? builtFile("cli/main.js");
}

/** The daemon's bundle (scripts/bundles.mjs), one file rather than its modules. */
export function builtDaemon(): string | null {
  return builtFile("daemon/start/daemon.bundle.mjs");
}

/**
 * The node arguments that run the roost command: the built main, or the source when run through
 * tsx. What starts a roost process of its own (the daemon in the background, the daemon's `roost web`)
 * runs `process.execPath` with these, then the command's words.
 */
export function roostCommand(): string[] {
  const built = builtMain();
  if (built) return [built];
  // tsx resolved from here, so that the process starts whatever the caller's working folder.
  return ["--import", import.meta.resolve("tsx"), fileURLToPath(new URL("../cli/main.ts", import.meta.url))];
}
