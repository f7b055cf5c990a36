import type { JobRow } from "../../protocol/rows.js";
import {
  DIFF_CUT_NOTE,
  fileCounts,
  patchLineKind,
  statOf,
  statText,
  worktreeLine,
} from "../../protocol/worktree-text.js";
import type { DiffResult } from "../../protocol/worktrees.js";
import { button, el, fill } from "./dom.js";
import type { DiffAnswer } from "./session-ops.js";

/**
 * A worktree job's diff in its session, as `roost diff` has it: the files with their counts, then
 * the patch. A file's name and text are the agent's: every line is a text node. It is asked again
 * when the row's worktree changes (as the hub's diff follows it), one request at a time.
 */
export class DiffView {
  readonly element = el("section", { class: "diff-view" });
  private readonly body = el("div", { class: "diff-body" });
  /** The worktree as the row had it when the diff shown was asked for. */
  private askedFor: string | null = null;
  private asking = false;
  private again = false;

  constructor(
    private readonly ask: () => Promise<DiffAnswer>,
    close: () => void,
  ) {
    this.element.append(
      el("div", { class: "diff-top" }, el("h3", {}, "Diff"), button("Close diff", close, "close-diff")),
      this.body,
    );
    this.element.hidden = true;
  }

  get shown(): boolean {
    return !this.element.hidden;
  }

  show(row: JobRow): void {
    this.element.hidden = false;
    fill(this.body, el("p", { class: "diff-note" }, "Asking the daemon…"));
    this.askedFor = null;
    this.follow(row);
  }

  hide(): void {
    this.element.hidden = true;
  }

  /** The row as it is now: its diff is asked for again if its worktree changed. */
  follow(row: JobRow): void {
    const worktree = JSON.stringify(row.worktree ?? null);
    if (!this.shown || worktree === this.askedFor) return;
    this.askedFor = worktree;
    void this.refresh();
  }

  private async refresh(): Promise<void> {
    if (this.asking) {
      this.again = true;
      return;
    }
    this.asking = true;
    this.again = false;
    try {
      const answer = await this.ask();
      if (this.shown) this.draw(answer);
    } finally {
      this.asking = false;
      if (this.again && this.shown) void this.refresh();
    }
  }

  private draw(answer: DiffAnswer): void {
    if (!answer.ok) {
      fill(this.body, el("p", { class: "diff-note error" }, `No diff: ${answer.code}: ${answer.error}`));
      return;
    }
    const diff = answer.result;
    fill(
      this.body,
      el("p", { class: "diff-head" }, worktreeLine(diff.worktree)),
      diff.files.length === 0
        ? el("p", { class: "diff-note" }, "No changes against its base yet.")
        : el(
            "ul",
            { class: "diff-files" },
            ...diff.files.map((file) =>
              el(
                "li",
                {},
                el("span", { class: "diff-path" }, file.path),
                el("span", { class: "diff-count" }, fileCounts(file)),
              ),
            ),
            el("li", { class: "diff-total" }, statText(statOf(diff.files))),
          ),
      diff.patch && patchElement(diff),
      diff.truncated && el("p", { class: "diff-note" }, DIFF_CUT_NOTE),
    );
  }
}

/** The patch, a line a text node in a span of its kind (added, removed, a hunk's or file's head). */
function patchElement(diff: DiffResult): HTMLPreElement {
  const lines = (diff.patch ?? "").replace(/\n$/, "").split("\n");
  return el(
    "pre",
    { class: "diff-patch" },
    ...lines.map((line) => el("span", { class: `patch-${patchLineKind(line) ?? "context"}` }, line, "\n")),
  );
}
