/**
 * What a process loads: `--import` of a recorder whose loader hook appends each ES module's URL to a
 * file, and which at exit appends those of the CommonJS modules `require` loaded (no loader hook
 * sees them on node 20), read once the process has ended. Given as NODE_OPTIONS, so that any
 * command can be watched.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const HOOKS = `
import { appendFileSync } from "node:fs";
let file;
export function initialize(data) { file = data.file; }
export async function load(url, context, next) {
  appendFileSync(file, url + "\\n");
  return next(url, context);
}
`;

const RECORDER = `
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import { pathToFileURL } from "node:url";
const file = process.env.MODULE_LOADS_FILE;
register(new URL("./hooks.mjs", import.meta.url), { data: { file } });
const { cache } = createRequire(import.meta.url);
process.on("exit", () => {
  for (const path of Object.keys(cache)) appendFileSync(file, pathToFileURL(path).href + "\\n");
});
`;

/** Runs `run` with the environment that records loads, and returns the URLs loaded, in order. */
export async function modulesLoaded(
  run: (env: Record<string, string>) => Promise<unknown>,
): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "roost-loads-"));
  try {
    writeFileSync(join(dir, "hooks.mjs"), HOOKS);
    writeFileSync(join(dir, "recorder.mjs"), RECORDER);
    const file = join(dir, "loads.txt");
    writeFileSync(file, "");
    await run({
      NODE_OPTIONS: `--import ${pathToFileURL(join(dir, "recorder.mjs")).href}`,
      MODULE_LOADS_FILE: file,
    });
    // A CommonJS module that an ES module imported is seen by both.
    return [...new Set(readFileSync(file, "utf8").split("\n").filter(Boolean))];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
