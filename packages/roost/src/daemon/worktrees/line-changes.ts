/**
 * Lines added and removed between two versions of a file, counted as `git diff --numstat` counts
 * them, without running git: the shortest edit script's insertions and deletions (Myers), so that a
 * worktree's row follows an agent's edits at the cost of reading the files it touched.
 */

/** A file git calls binary (a NUL in its first 8,000 bytes): numstat gives it no counts. */
export function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}

/** The file's lines; an unterminated last line differs from the same line ended ("\ No newline"). */
function linesOf(content: Buffer): string[] {
  const text = content.toString("utf8");
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  else lines[lines.length - 1] += "\n";
  return lines;
}

export interface LineCounts {
  added: number | null;
  removed: number | null;
}

/**
 * What turning `before` into `after` adds and removes (null: absent), or undefined when the script
 * is longer than `maxEdits` (git is then asked instead).
 */
export function lineChanges(
  before: Buffer | null,
  after: Buffer | null,
  maxEdits = 5000,
): LineCounts | undefined {
  if ((before && isBinary(before)) || (after && isBinary(after))) return { added: null, removed: null };
  const a = before ? linesOf(before) : [];
  const b = after ? linesOf(after) : [];
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  if (n === 0 || m === 0) return { added: m, removed: n };
  const max = Math.min(n + m, maxEdits);
  // v[k + offset]: the furthest x on diagonal k (y = x - k) reached with d edits.
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
          ? v[offset + k + 1]!
          : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[start + x] === b[start + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return { added: (d + m - n) / 2, removed: (d - m + n) / 2 };
    }
  }
  return undefined;
}
