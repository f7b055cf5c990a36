/**
 * Reading a terminal agent's row from its screen: what it is doing (the window title, else the last
 * meaningful line) and whether it waits for the user (a prompt at the bottom of the screen).
 */
import { LIMITS } from "../../protocol/index.js";
import type { ScreenSnapshot } from "../host/api.js";

export interface ScreenReading {
  summary: string | null;
  /** Set when the screen shows a prompt: the line that asks. */
  question: string | null;
  /** The answers the prompt offers (`y`/`n`, a menu's items); empty for an open question. */
  choices: string[];
  /** What to type for each choice: the choice itself, or a menu item's number. */
  answers: string[];
}

/** A `[y/N]`, `(yes/no)`, `[Y/n]` style prompt. */
const YES_NO = /[[(]\s*(y(?:es)?)\s*\/\s*(n(?:o)?)\s*[\])]/i;
/** A numbered menu item: `1) apples`, `2. pears`, `[3] plums`, `❯ 1. Yes`, `> 2) No`. */
const MENU_ITEM = /^\s*(?:[>❯›»*→]\s*)?(?:\[(\d{1,2})\]|(\d{1,2})[.)])\s+(\S.*)$/;
/** Box drawing, block elements and the like: frames of full-screen programs, not content. */
const DECORATION = /[\u2500-\u259f\u25a0-\u25ff]/g;
/** How far above the bottom of the content a menu may start. */
const MENU_WINDOW = 12;

/** A line with something to read in it: a letter or a digit once frames and borders are gone. */
export function meaningful(line: string): string | null {
  const text = line.replace(DECORATION, " ").replace(/\s+/g, " ").trim();
  return /[\p{L}\p{N}]/u.test(text) ? text : null;
}

function lastMeaningfulLine(lines: string[]): string | null {
  for (let i = lines.length - 1; i >= 0; i--) {
    const text = meaningful(lines[i]!);
    if (text !== null) return text;
  }
  return null;
}

function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}

/** Index of the last line with any text, or -1. */
function lastContentIndex(lines: string[]): number {
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.trim() !== "") return i;
  return -1;
}

function yesNo(line: string): string[] | null {
  const match = YES_NO.exec(line);
  if (!match) return null;
  return [match[1]!.toLowerCase(), match[2]!.toLowerCase()];
}

interface Menu {
  question: string | null;
  items: string[];
  numbers: string[];
}

/**
 * A numbered menu near the bottom: at least two items numbered 1, 2, ... in a row, with at most a
 * prompt line or two below them ("Choose 1-3:").
 */
function numberedMenu(lines: string[], last: number): Menu | null {
  const top = Math.max(0, last - MENU_WINDOW);
  for (let end = last; end >= top && end >= last - 2; end--) {
    const items: string[] = [];
    const numbers: string[] = [];
    let i = end;
    let expected: number | null = null;
    while (i >= top) {
      const match = MENU_ITEM.exec(lines[i]!);
      if (!match) break;
      const n = Number(match[1] ?? match[2]);
      if (expected !== null && n !== expected) break;
      items.unshift(match[3]!.trim());
      numbers.unshift(String(n));
      expected = n - 1;
      i--;
      if (n === 1) break;
    }
    if (items.length >= 2 && expected === 0) {
      const below = lines
        .slice(end + 1, last + 1)
        .map(meaningful)
        .filter((l) => l !== null);
      const above = i >= 0 ? lastMeaningfulLine(lines.slice(Math.max(0, i - 2), i + 1)) : null;
      return { question: above ?? below[0] ?? null, items, numbers };
    }
  }
  return null;
}

/** A line ending in `?` with the cursor just after it (the program waits for the answer there). */
function openQuestion(screen: ScreenSnapshot): string | null {
  const line = screen.lines[screen.cursor.y];
  if (line === undefined) return null;
  const text = line.trimEnd();
  if (!text.endsWith("?") || screen.cursor.x < text.length) return null;
  return meaningful(text);
}

/** A profile's own prompts: the first pattern that matches a line, from the bottom up. */
function patternPrompt(lines: string[], last: number, patterns: readonly RegExp[]): string | null {
  if (patterns.length === 0) return null;
  for (let i = last; i >= 0 && i >= last - MENU_WINDOW; i--) {
    const line = lines[i]!;
    for (const pattern of patterns) {
      const match = pattern.exec(line);
      if (match) return meaningful(match.groups?.question ?? line) ?? line.trim();
    }
  }
  return null;
}

export function readScreen(screen: ScreenSnapshot, blockedPatterns: readonly RegExp[] = []): ScreenReading {
  const title = screen.title.trim();
  const summary = title !== "" ? meaningful(title) : lastMeaningfulLine(screen.lines);
  const reading: ScreenReading = {
    summary: summary === null ? null : clip(summary, LIMITS.summary),
    question: null,
    choices: [],
    answers: [],
  };
  const last = lastContentIndex(screen.lines);
  if (last === -1) return reading;
  const ask = (question: string | null, choices: string[], answers = choices): ScreenReading => ({
    ...reading,
    question: clip(question ?? "", LIMITS.question),
    choices: choices.slice(0, LIMITS.choices).map((c) => clip(c, LIMITS.choice)),
    answers: answers.slice(0, LIMITS.choices),
  });
  const bottom = screen.lines[last]!;
  const choices = yesNo(bottom);
  if (choices) return ask(meaningful(bottom), choices);
  const menu = numberedMenu(screen.lines, last);
  if (menu) return ask(menu.question, menu.items, menu.numbers);
  const question = openQuestion(screen);
  if (question !== null) return ask(question, []);
  const matched = patternPrompt(screen.lines, last, blockedPatterns);
  if (matched !== null) return ask(matched, []);
  return reading;
}
