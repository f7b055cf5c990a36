/**
 * The `roost` command as installed (bin/roost.js, which runs the build's bundle, dist/cli/roost.cjs,
 * and through it the modules in `dist/`), which the tests run: node with tsx takes a
 * second more to start each command, and the suites run hundreds. `npm test` builds first; a
 * test run alone on a tree changed since its build is told to build, not run stale code.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { assertBuiltAfter } from "../../../../scripts/stale-build.mjs";

const PACKAGE = fileURLToPath(new URL("../../", import.meta.url));
export const CLI = join(PACKAGE, "bin/roost.js");

assertBuiltAfter(join(PACKAGE, "dist/cli/roost.cjs"), join(PACKAGE, "src"));
