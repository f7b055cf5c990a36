import { readFileSync } from "node:fs";

/** `roost --version` and `roost -V`, as node and git take them. */
export function isVersionFlag(word: string | undefined): boolean {
  return word === "--version" || word === "-V";
}

/**
 * The package's version, from its package.json: two folders up from this module in the source
 * (src/cli/), the build (dist/cli/) and the bundle (dist/cli/) alike.
 */
export function roostVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
  return String(manifest.version);
}
