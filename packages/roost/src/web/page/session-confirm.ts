import type { JobRow } from "../../protocol/rows.js";
import { button, el } from "./dom.js";

/**
 * A question in a session's confirmation bar, in the hub's words: only its first button acts; the
 * other, or the next question, leaves it.
 */
export function askIn(bar: HTMLElement, question: string, yes: string, act: () => void, no: string): void {
  bar.replaceChildren(
    el("span", {}, question),
    button(
      yes,
      () => {
        bar.replaceChildren();
        act();
      },
      "danger",
    ),
    button(no, () => bar.replaceChildren(), "keep"),
  );
}

/** A respawn ends a running process first (as the hub asks then); an ended job just starts again. */
export const respawnQuestion = (row: JobRow): string =>
  row.lifecycle === "running" || row.lifecycle === "starting"
    ? `Respawn ${row.name}? Its process ends and starts again.`
    : `Respawn ${row.name}? It starts again.`;

export const removeQuestion = (row: JobRow): string =>
  `Remove ${row.name}? Its process ends and its folder is deleted.${
    row.worktree ? ` Its worktree goes; its branch ${row.worktree.branch} stays.` : ""
  }`;
