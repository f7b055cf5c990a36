// The installed `roost` command's bundle (see src/cli/roost-entry.ts): dist/cli/roost.cjs, beside
// the modules tsc built, to which it leaves every other command.
import { build } from "esbuild";

await build({
  entryPoints: ["src/cli/roost-entry.ts"],
  outfile: "dist/cli/roost.cjs",
  bundle: true,
  platform: "node",
  // CommonJS: run by a CommonJS bin/roost.js, `roost ls` starts without node's ES module loader.
  format: "cjs",
  target: "node20",
  // Packages load from node_modules as they are: a native one cannot be bundled, and the test of
  // what `roost ls` loads sees any that the bundle's commands start to import.
  packages: "external",
  // main as tsc built it, next to the bundle: `import("./main.js")` stays as written.
  external: ["./main.js"],
  // CommonJS has no import.meta; the modules' paths relative to their URL use the bundle's. It has
  // no `resolve`: only the source's way to start the daemon (through tsx) asks for one.
  define: { "import.meta": "bundleMeta" },
  banner: { js: 'const bundleMeta = { url: require("node:url").pathToFileURL(__filename).href };' },
  logLevel: "warning",
});
