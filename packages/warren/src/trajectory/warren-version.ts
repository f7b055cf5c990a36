import { readFileSync } from "node:fs";

let version: string | undefined;

/** The warren-sim package's version, read once from its package.json (beside src/ and dist/ alike). */
export function warrenVersion(): string {
  version ??= (
    JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      version: string;
    }
  ).version;
  return version;
}
