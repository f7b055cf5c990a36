// The build's three bundles, each beside the modules tsc built:
// - dist/cli/roost.cjs, the installed `roost` command (see src/cli/roost-entry.ts): the row
//   commands, which hands every other command to main's bundle;
// - dist/cli/main.bundle.mjs, main and every command;
// - dist/daemon/start/daemon.bundle.mjs, the daemon that `roost daemon` runs: its 190 modules and
//   the packages it loads (typebox alone is hundreds of files) in one file, read and linked once.
//   A daemon start took 0.65 CPU-s to load them one by one; the test suites start one a hundred
//   times and more.
import { readFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
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

/**
 * Each module keeps its own URL: `import.meta.url` becomes the URL its built file has, so that the
 * paths it finds from there (the process host's entry, the web page, package.json) are the same
 * from a bundle wherever it sits.
 */
function ownUrls(outfile) {
  return {
    name: "own-urls",
    setup(b) {
      b.onLoad({ filter: /[/\\]dist[/\\].*\.js$/ }, async ({ path }) => {
        const source = await readFile(path, "utf8");
        if (!source.includes("import.meta.url")) return undefined;
        const own = relative(dirname(outfile), path).split("\\").join("/");
        const url = `new URL(${JSON.stringify(own)}, import.meta.url).href`;
        return { contents: source.replaceAll("import.meta.url", url), loader: "js" };
      });
    },
  };
}

/**
 * Built modules left out of a bundle (`apart`, paths under dist/): imported as they are, by their
 * path from the bundle's folder.
 */
function leftOut(outfile, apart) {
  return {
    name: "left-out",
    setup(b) {
      b.onResolve({ filter: /^\./ }, ({ path, resolveDir }) => {
        const file = resolve(resolveDir, path);
        if (!apart.some((module) => file === resolve(module))) return undefined;
        const from = relative(dirname(outfile), file).split("\\").join("/");
        return { path: from.startsWith(".") ? from : `./${from}`, external: true };
      });
    },
  };
}

/**
 * The modules tsc built from `entry` on, as one ES module; the `external` packages and the `apart`
 * modules stay out of it.
 */
function esmBundle(entry, outfile, external, apart = []) {
  return build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external,
    // The CommonJS packages bundled in call require for node's modules.
    banner: {
      js: 'import { createRequire as bundleRequire } from "node:module"; const require = bundleRequire(import.meta.url);',
    },
    plugins: [ownUrls(outfile), leftOut(outfile, apart)],
    logLevel: "warning",
  });
}

// The daemon with every package but the native SQLite driver, which loads from node_modules as it is.
await esmBundle("dist/daemon/start/run-foreground.js", "dist/daemon/start/daemon.bundle.mjs", [
  "better-sqlite3",
]);

// Every other command with typebox, the one package each loads for its arguments' schemas; the
// others (the hub's terminal UI, the web server's) are one command's each and stay apart.
const { dependencies } = JSON.parse(await readFile("package.json", "utf8"));
const apart = Object.keys(dependencies).filter((name) => name !== "typebox");
// The daemon's code stays out too: `roost daemon` loads the daemon's bundle.
await esmBundle(
  "dist/cli/main.js",
  "dist/cli/main.bundle.mjs",
  apart.flatMap((name) => [name, `${name}/*`]),
  ["dist/daemon/start/run-foreground.js"],
);
