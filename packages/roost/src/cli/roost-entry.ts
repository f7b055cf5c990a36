/**
 * The installed `roost` command (bin/roost.js), bundled by the build into one CommonJS file,
 * dist/cli/roost.cjs: loading a command's ES modules one by one costs about a millisecond each, and
 * node's ES module loader more, while `roost ls`, the command asked most, is done in a few. The row
 * commands (`ls`, `rename`, `pin`: they only ask the daemon and print) run from the bundle; every
 * other word goes to main's bundle (dist/cli/main.bundle.mjs, which holds typebox too), where only
 * its command's code runs. A command runs wholly on one side: the sides' classes differ (a
 * RoostError thrown by one is not an instance of the other's).
 *
 * The bundle sits in dist/cli/, one folder under dist/ like the modules it holds, so that their
 * paths relative to their own URL (the daemon's entry, `../cli/main.js`) still reach the build's.
 */
import { pathToFileURL } from "node:url";
import { builtMain } from "../home/roost-command.js";
import { type Command, runCommand } from "./command.js";
import { ls, pin, rename } from "./commands/rows.js";
import { isVersionFlag, roostVersion } from "./version.js";

const BUNDLED: Record<string, Command> = { ls, rename, pin };

const [name = "", ...rest] = process.argv.slice(2);
if (Object.hasOwn(BUNDLED, name)) {
  // No top-level await: CommonJS has none, and runCommand turns every failure into its exit code.
  void runCommand(BUNDLED[name]!, rest).then((code) => {
    process.exitCode = code;
  });
} else if (isVersionFlag(name)) process.stdout.write(`${roostVersion()}\n`);
else {
  const main = builtMain();
  void import(main === null ? "./main.js" : pathToFileURL(main).href);
}
