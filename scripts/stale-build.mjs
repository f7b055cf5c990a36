/**
 * The tests run each package's command as built (`dist/`): `npm test` builds first, and a test
 * file run alone on a source tree changed since its build is told to build rather than run stale
 * code. The build rewrites `dist/` whole, so a built file older than the newest source file is stale.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Throws, saying to build, if `built` is missing or older than anything under `source`. */
export function assertBuiltAfter(built, source) {
  if (!existsSync(built) || statSync(built).mtimeMs < newestUnder(source) - 1000) {
    throw new Error(
      `${built} is missing or older than ${source}: run \`npm run build\` first (npm test does)`,
    );
  }
}
