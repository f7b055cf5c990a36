/**
 * The `roost` command as the build made it (`dist/`), which the tests run: node with tsx takes a
 * second more to start each command, and the suites run hundreds. `npm test` builds first; a
 * test run alone on a tree changed since its build is told to build, not run stale code.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE = fileURLToPath(new URL("../../", import.meta.url));
export const CLI = join(PACKAGE, "dist/cli/main.js");

function newestUnder(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs);
  }
  return newest;
}

if (!existsSync(CLI) || statSync(CLI).mtimeMs < newestUnder(join(PACKAGE, "src")) - 1000) {
  throw new Error(`${CLI} is missing or older than src/: run \`npm run build\` first (npm test does)`);
}
