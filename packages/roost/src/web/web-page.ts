import { readFileSync } from "node:fs";

/** The page's built files (TypeScript bundled by the package's build into `dist/web/page/`). */
const PAGE_DIR = new URL("./page/", import.meta.url);

/** What the server serves besides the page: its script and its stylesheet, read once. */
export const PAGE_ASSETS: Record<string, { file: string; type: string }> = {
  "/page.js": { file: "main.js", type: "text/javascript; charset=utf-8" },
  "/page.css": { file: "page.css", type: "text/css; charset=utf-8" },
};

const cache = new Map<string, string>();

export function pageAsset(file: string): string {
  let text = cache.get(file);
  if (text === undefined) {
    text = readFileSync(new URL(file, PAGE_DIR), "utf8");
    cache.set(file, text);
  }
  return text;
}

/** The page's shell: everything on it is made by its script, from the rows it is sent. */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>roost</title>
<link rel="stylesheet" href="/page.css">
<script type="module" src="/page.js"></script>
</head>
<body></body>
</html>
`;

/**
 * Headers on every answer: scripts and style sheets from this server only (no inline script runs,
 * even one an agent's text smuggled in), no framing, no referrer (the first address carries the
 * token). Inline styles are let in for xterm.js alone: its renderer writes the cell size and the
 * theme it measures into `<style>` elements it makes (`style-src-elem`) and a 24-bit colour into a
 * cell's `style` attribute (`style-src-attr`). No style runs script, and the page makes no element
 * of anyone's markup, so none but xterm.js and the page puts a style there. A browser that knows
 * only `style-src` keeps it strict, and draws the terminal plainer.
 */
export const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; style-src-elem 'self' 'unsafe-inline'; style-src-attr 'unsafe-inline'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};
