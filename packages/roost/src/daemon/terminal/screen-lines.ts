/** Plain reading of screen lines: which say something, where the content ends, paragraphs. */

/** Box drawing, block elements and the like: frames of full-screen programs, not content. */
const DECORATION = /[\u2500-\u259f\u25a0-\u25ff]/g;

/** A line with something to read in it: a letter or a digit once frames and borders are gone. */
export function meaningful(line: string): string | null {
  const text = line.replace(DECORATION, " ").replace(/\s+/g, " ").trim();
  return /[\p{L}\p{N}]/u.test(text) ? text : null;
}

export function lastMeaningfulLine(lines: readonly string[]): string | null {
  for (let i = lines.length - 1; i >= 0; i--) {
    const text = meaningful(lines[i]!);
    if (text !== null) return text;
  }
  return null;
}

/** Index of the last line with any text, or -1. */
export function lastContentIndex(lines: readonly string[]): number {
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.trim() !== "") return i;
  return -1;
}

export function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}

/** The lines of the paragraph (lines with text, no blank between) that ends at `end`. */
export function paragraphEndingAt(lines: readonly string[], end: number, top = 0): string[] {
  let start = end;
  while (start - 1 >= top && lines[start - 1]!.trim() !== "") start--;
  return lines.slice(start, end + 1);
}
