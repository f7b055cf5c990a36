import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { after } from "node:test";
import { buildSync } from "esbuild";
import { packageDir } from "./warren-process.js";

const bundles = mkdtempSync(join(tmpdir(), "warren-clients-"));
after(() => rmSync(bundles, { recursive: true, force: true }));
const built = new Map<string, string>();

/**
 * The command that starts a remote client written in TypeScript (`file` from the package's
 * folder), for a sweep's mix: the file, the source it imports and its packages bundled once into
 * one ES module. A sweep starts its client once per run: through tsx each start costs about
 * 2.4 CPU-s, the bundle about 0.2 (no transform, one file to load rather than hundreds); bundling
 * costs well under a second, once.
 */
export function bundledClient(file: string, ...args: string[]): string[] {
  let bundle = built.get(file);
  if (!bundle) {
    bundle = join(bundles, `${built.size}-${basename(file, ".ts")}.mjs`);
    buildSync({
      entryPoints: [join(packageDir, file)],
      outfile: bundle,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      // The CommonJS packages inside (ajv, ws) require Node's modules, which an ES module has no require for.
      banner: {
        js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);',
      },
      logLevel: "warning",
    });
    built.set(file, bundle);
  }
  return [process.execPath, bundle, ...args];
}
