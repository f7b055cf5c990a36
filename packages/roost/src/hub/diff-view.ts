/** `d`: a job's worktree diff in a box over the list (files with their counts, then the patch), following its changes. */
import { diffLines } from "../cli/diff-lines.js";
import { boxLines } from "./box-view.js";
import type { HubState, JobDiff } from "./hub-state.js";
import { bold, dim, oneLine, red } from "./style.js";

/** The diff view's body: the job's work, each line made safe (a file's text is the agent's). */
export function diffBody(diff: JobDiff | null): string[] {
  if (diff?.error) return [red(` ${diff.error}`), "", dim(" Esc goes back to the list.")];
  if (!diff?.result) return [dim(" asking the daemon…")];
  return diffLines(diff.result, true).map((line) => ` ${line}`);
}

/** The diff overlay for the job the mode names (the diff asked for last, when it is that job's). */
export function diffOverlayLines(state: HubState, id: string, width: number, height: number, scroll: number) {
  const name = state.rows.get(id)?.name ?? id;
  const diff = state.diff?.id === id ? state.diff : null;
  return boxLines(
    `${bold(oneLine(name))} · diff`,
    diffBody(diff),
    width,
    height,
    scroll,
    "Esc closes · m merges",
  );
}
