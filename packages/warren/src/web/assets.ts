import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The viewer's browser files: plain scripts and one stylesheet, loaded in this order, with no build
 * step. They are read from the package's `src/web/assets/`, the same folder from `src/` and `dist/`.
 */
export const VIEWER_SCRIPTS = [
  "dom.js",
  "model.js",
  "label-layout.js",
  "map-marks.js",
  "map-view.js",
  "agent-panel.js",
  "event-sentence.js",
  "event-log.js",
  "place-list.js",
  "feed.js",
  "replay-controls.js",
  "run-page.js",
  "runs-page.js",
] as const;
export const VIEWER_STYLESHEET = "viewer.css";

const ASSETS_DIR = fileURLToPath(new URL("../../src/web/assets/", import.meta.url));

const cache = new Map<string, string>();

/** One asset's text, read once. */
export function viewerAsset(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(ASSETS_DIR + name, "utf8");
    cache.set(name, text);
  }
  return text;
}
