/**
 * The repository's markdown as a reader follows it: every `.md` file, the relative links in it and
 * the anchors its headings make. Anchors are made as GitHub makes them (lower case, punctuation
 * out, spaces as hyphens, a repeated heading numbered), since that is where the pages are read.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Folders that hold no page of the project's own (built output, installed packages, test output). */
const SKIPPED = new Set(["node_modules", "dist", "demo-home", "test-output", ".git", ".tmp"]);

export function markdownFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...markdownFiles(path));
    else if (entry.name.endsWith(".md")) found.push(path);
  }
  return found;
}

export interface MarkdownLine {
  number: number;
  text: string;
}

/** The lines outside fenced code blocks, where a link or a heading means what it says. */
export function proseLines(markdown: string): MarkdownLine[] {
  const lines: MarkdownLine[] = [];
  let fence: string | null = null;
  markdown.split("\n").forEach((text, index) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(text)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      return;
    }
    if (fence === null) lines.push({ number: index + 1, text });
  });
  return lines;
}

/** A heading's text as it reads: inline code, links and emphasis reduced to their words. */
function headingWords(heading: string): string {
  return heading
    .replace(/`([^`]*)`/g, "$1")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_]{1,2}([^*_]+)[*_]{1,2}/g, "$1");
}

export function slug(heading: string): string {
  return headingWords(heading)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

export function headings(markdown: string): string[] {
  return proseLines(markdown).flatMap(({ text }) => {
    const match = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    return match ? [match[1]!] : [];
  });
}

export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const heading of headings(markdown)) {
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

export interface MarkdownLink {
  line: number;
  target: string;
}

/** Inline links and images (`[text](target)`) and reference definitions, outside code. */
export function relativeLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const { number, text } of proseLines(markdown)) {
    const prose = text.replace(/`[^`]*`/g, "");
    const targets = [
      ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
      ...[...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)].map((m) => m[1]!),
    ];
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: and other schemes
      links.push({ line: number, target });
    }
  }
  return links;
}

/**
 * The commands a README's table of commands names: each row's first cell, read for code spans that
 * start with the program (`roost stop\|rm\|respawn ID` names three; `roost` alone is its hub).
 */
export function tableCommands(markdown: string, program: string): string[] {
  const names = new Set<string>();
  for (const { text } of proseLines(markdown)) {
    const firstCell = /^\|((?:[^|\\]|\\.)*)\|/.exec(text)?.[1];
    if (!firstCell) continue;
    for (const [, words] of firstCell.matchAll(/`([^`]*)`/g)) {
      const [head, sub] = words!.split(" ");
      if (head !== program) continue;
      for (const name of (sub ?? "hub").split("\\|")) names.add(name);
    }
  }
  return [...names].sort();
}

/** The commands a program's `--help` lists, one `  PROGRAM NAME ...` line each. */
export function helpCommands(help: string, program: string): string[] {
  return [
    ...new Set([...help.matchAll(new RegExp(`^ {2}${program} ([a-z-]+)`, "gm"))].map((m) => m[1]!)),
  ].sort();
}
