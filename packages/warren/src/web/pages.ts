import type { RunEvent } from "../engine/events.js";
import { VIEWER_SCRIPT, VIEWER_STYLESHEET, viewerAsset } from "./assets.js";
import type { PageConfig, RunRecord, Scene } from "./viewer-documents.js";

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

/**
 * A viewer page, its files inlined: one document, nothing more to fetch before it runs (a served
 * page loads without a round of requests for its files, and a replay file opens from disk).
 */
export function viewerPage(title: string, config: PageConfig): string {
  const inline = (text: string): string => text.replace(/<\/(script|style)/gi, "<\\/$1");
  const style = `<style>\n${inline(viewerAsset(VIEWER_STYLESHEET))}\n</style>`;
  // A module, as it was bundled: it runs once the document is read, after the config before it.
  const script = `<script type="module">\n${inline(viewerAsset(VIEWER_SCRIPT))}\n</script>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${style}
</head>
<body>
<div id="app" aria-live="polite">Loading…</div>
<script>window.WARREN_PAGE = ${scriptJson(config)};</script>
${script}
</body>
</html>
`;
}

/** One self-contained HTML file that replays a run: the run's data embedded. */
export function replayFile(scene: Scene, events: RunEvent[], record: RunRecord): string {
  return viewerPage(`${scene.scenario} seed ${scene.seed} — warren replay`, {
    page: "file",
    scene,
    events,
    record,
  });
}
