import type { RunEvent } from "../engine/types.js";
import { VIEWER_SCRIPTS, VIEWER_STYLESHEET, viewerAsset } from "./assets.js";
import type { RunRecord } from "./run-record.js";
import type { Scene } from "./scene.js";

/** Where the served pages load the viewer's files from. */
export const ASSET_PREFIX = "/viewer/";

/** What the page's script is told about itself. */
export type PageConfig =
  | { page: "runs" }
  | { page: "run"; run_id: string }
  | { page: "file"; scene: Scene; events: RunEvent[]; record: RunRecord };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

/** JSON safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function shell(title: string, config: PageConfig, head: string, scripts: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${head}
</head>
<body>
<div id="app" aria-live="polite">Loading…</div>
<script>window.WARREN_PAGE = ${scriptJson(config)};</script>
${scripts}
</body>
</html>
`;
}

/** A page served by `warren serve`, loading the viewer's files from the server. */
export function servedPage(title: string, config: PageConfig): string {
  return shell(
    title,
    config,
    `<link rel="stylesheet" href="${ASSET_PREFIX}${VIEWER_STYLESHEET}">`,
    VIEWER_SCRIPTS.map((name) => `<script src="${ASSET_PREFIX}${name}"></script>`).join("\n"),
  );
}

/** One self-contained HTML file that replays a run: the viewer's files inlined, the run's data embedded. */
export function replayFile(scene: Scene, events: RunEvent[], record: RunRecord): string {
  const inline = (text: string): string => text.replace(/<\/(script|style)/gi, "<\\/$1");
  return shell(
    `${scene.scenario} seed ${scene.seed} — warren replay`,
    { page: "file", scene, events, record },
    `<style>\n${inline(viewerAsset(VIEWER_STYLESHEET))}\n</style>`,
    VIEWER_SCRIPTS.map((name) => `<script>\n${inline(viewerAsset(name))}\n</script>`).join("\n"),
  );
}
