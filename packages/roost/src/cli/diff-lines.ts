/**
 * A diff as lines to show: the files with their counts, then the patch, each line made safe for
 * the terminal (a file's text is the agent's) and coloured when asked. The CLI and the hub share it.
 */
import {
  DIFF_CUT_NOTE,
  type DiffResult,
  fileCounts,
  patchLineKind,
  statOf,
  statText,
  terminalSafe,
  worktreeLine,
} from "../protocol/index.js";

const COLOUR = { add: "\x1b[32m", remove: "\x1b[31m", hunk: "\x1b[36m", file: "\x1b[1m", reset: "\x1b[0m" };

function paint(line: string, colour: boolean): string {
  const safe = terminalSafe(line);
  if (!colour) return safe;
  const kind = patchLineKind(line);
  return kind ? `${COLOUR[kind]}${safe}${COLOUR.reset}` : safe;
}

/** `  path  +3 −1` for each file, then the total. */
export function statLines(diff: DiffResult): string[] {
  const width = Math.max(0, ...diff.files.map((f) => [...f.path].length));
  return [
    ...diff.files.map((f) => ` ${terminalSafe(f.path).padEnd(width)}  ${fileCounts(f)}`),
    ` ${statText(statOf(diff.files))}`,
  ];
}

export function diffLines(diff: DiffResult, colour: boolean): string[] {
  const head = [terminalSafe(worktreeLine(diff.worktree)), ...statLines(diff)];
  if (diff.patch === null) return head;
  const patch = diff.patch
    .replace(/\n$/, "")
    .split("\n")
    .filter((l, i, all) => l !== "" || i < all.length - 1);
  return [
    ...head,
    "",
    ...patch.map((line) => paint(line, colour)),
    ...(diff.truncated ? [DIFF_CUT_NOTE] : []),
  ];
}
