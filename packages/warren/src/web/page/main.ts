/**
 * The viewer's page: the document says which page it is (`window.WARREN_PAGE`, set before this
 * module, which runs once the document is read), and this draws it into `#app`.
 */
import type { PageConfig } from "../viewer-documents.js";
import { el } from "./dom.js";
import { RunPage } from "./run-page.js";
import { showRunsPage } from "./runs-page.js";

declare global {
  interface Window {
    WARREN_PAGE?: PageConfig;
    /** The run page shown, for tests and benchmarks to read in the browser. */
    WarrenViewer?: { page?: RunPage };
  }
}

async function showRun(root: HTMLElement, config: Exclude<PageConfig, { page: "runs" }>): Promise<void> {
  const page = new RunPage(root);
  window.WarrenViewer = { page };
  try {
    if (config.page === "file") {
      // A file stands alone: there is no runs page to go back to.
      root.querySelector("nav")?.remove();
      page.replay(config.scene, config.events, config.record);
    } else await page.watch(config.run_id);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    root.replaceChildren(el("p", { class: "error", role: "alert" }, `Cannot show this run: ${message}`));
  }
}

const config = window.WARREN_PAGE;
const root = document.getElementById("app");
if (config && root) void (config.page === "runs" ? showRunsPage(root) : showRun(root, config));
