import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The built command's main, both one folder under dist/ as this module is: its bundle
 * (scripts/bundles.mjs), else its module as tsc built it; null when run from source.
 */
export function builtMain(): string | null {
  if (import.meta.url.endsWith(".ts")) return null;
  for (const file of ["../cli/main.bundle.mjs", "../cli/main.js"]) {
    const path = fileURLToPath(new URL(file, import.meta.url));
    if (existsSync(path)) return path;
  }
  return null;
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
