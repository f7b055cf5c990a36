import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The viewer's browser files: its script, the TypeScript of `page/` bundled by the package's
 * build, and its stylesheet. They are read from the package's `dist/web/page/`, the same folder
 * from `src/` and `dist/`.
 */
export const VIEWER_SCRIPT = "main.js";
export const VIEWER_STYLESHEET = "viewer.css";

const PAGE_DIR = fileURLToPath(new URL("../../dist/web/page/", import.meta.url));

const cache = new Map<string, string>();

/** One file's text, read once. */
export function viewerAsset(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(PAGE_DIR + name, "utf8");
    cache.set(name, text);
  }
  return text;
}
