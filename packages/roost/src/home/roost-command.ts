import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The node arguments that run the roost command: the compiled entry, or the source when run through
 * tsx. What starts a roost process of its own (the daemon in the background, the daemon's `roost web`)
 * runs `process.execPath` with these, then the command's words.
 */
export function roostCommand(): string[] {
  const compiled = fileURLToPath(new URL("../cli/main.js", import.meta.url));
  // Built: a module (.js) or the row commands' bundle (.cjs), both one folder under dist/.
  if (!import.meta.url.endsWith(".ts") && existsSync(compiled)) return [compiled];
  // tsx resolved from here, so that the process starts whatever the caller's working folder.
  return ["--import", import.meta.resolve("tsx"), fileURLToPath(new URL("../cli/main.ts", import.meta.url))];
}
