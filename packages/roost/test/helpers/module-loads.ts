/**
 * What a process loads: `--import` of a recorder whose loader hook appends each module's URL to a
 * file, read once the process has ended. Given as NODE_OPTIONS, so that any command can be watched.
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
import { register } from "node:module";
register(new URL("./hooks.mjs", import.meta.url), { data: { file: process.env.MODULE_LOADS_FILE } });
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
    return readFileSync(file, "utf8").split("\n").filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
