/**
 * Dialogs on a screen: a numbered menu (highlighted item or not), a `[y/N]` prompt, a "Press Enter to
 * continue". Each has its question, its choices as the user reads them (decorations taken off) and
 * how each is chosen; `choosing.ts` types that.
 */
import type { AgentReader } from "./agent-reader.js";
import { meaningful, paragraphEndingAt } from "./screen-lines.js";

export interface DialogItem {
  /** The choice as shown, without hotkey decorations. */
  text: string;
  /** Its key: the item's number, a `y`/`n`, or Enter for a "continue". */
  key: string;
}

export interface Dialog {
  kind: "menu" | "yes-no" | "continue";
  question: string | null;
  items: DialogItem[];
  /** The highlighted item (Enter takes it), or -1 when the menu shows none. */
  highlighted: number;
}

/** A `[y/N]`, `(yes/no)`, `[Y/n]` style prompt. */
const YES_NO = /[[(]\s*(y(?:es)?)\s*\/\s*(n(?:o)?)\s*[\])]/i;
/** "Press Enter to continue…" and the like. */
const CONTINUE = /^(?:press|hit) (?:enter|return) to continue\b/i;
/** How far above the bottom of the content a menu may end. */
const MENU_WINDOW = 16;
/** How far above a menu its question may start. */
const QUESTION_WINDOW = 14;
/** Lines of text a menu with no highlighted item may have below it (a "Choose 1-3:" prompt). */
const BELOW_PLAIN_MENU = 2;

interface MenuLines {
  start: number;
  end: number;
  items: DialogItem[];
  highlighted: number;
}

/** Each reader's item pattern, made once: screens are read many times a second. */
const itemPatterns = new WeakMap<AgentReader, RegExp>();

function itemPattern(reader: AgentReader): RegExp {
  let pattern = itemPatterns.get(reader);
  if (!pattern) {
    const pointers = reader.pointers.replace(/[\\\]^-]/g, "\\$&");
    pattern = new RegExp(
      `^(\\s*)(?:([${pointers}])\\s*)?(?:\\[(\\d{1,2})\\]|(\\d{1,2})[.)])\\s+(\\S.*)$`,
      "u",
    );
    itemPatterns.set(reader, pattern);
  }
  return pattern;
}

/** The numbered items that end at `end`, numbered 1, 2, ... (long items may wrap onto lines below). */
function menuEndingAt(
  lines: readonly string[],
  end: number,
  top: number,
  reader: AgentReader,
): MenuLines | null {
  const item = itemPattern(reader);
  const found: { text: string; n: number; pointed: boolean }[] = [];
  let wrapped: string[] = [];
  let i = end;
  for (; i >= top; i--) {
    const line = lines[i]!;
    const match = item.exec(line);
    if (!match) {
      // A wrapped item's next line is indented past its number; anything else ends the menu.
      if (line.trim() === "" || !/^\s{3,}\S/.test(line)) break;
      wrapped.unshift(line.trim());
      continue;
    }
    const n = Number(match[3] ?? match[4]);
    if (found.length > 0 && n !== found[0]!.n - 1) break;
    found.unshift({ text: [match[5]!.trim(), ...wrapped].join(" "), n, pointed: match[2] !== undefined });
    wrapped = [];
    if (n === 1) break;
  }
  if (found.length < 2 || found[0]!.n !== 1 || wrapped.length > 0) return null;
  const items = found.map((f) => ({
    text: f.text.replace(reader.choiceDecoration, "").trim(),
    key: String(f.n),
  }));
  return { start: i, end, items, highlighted: found.findIndex((f) => f.pointed) };
}

function findMenu(lines: readonly string[], last: number, reader: AgentReader): MenuLines | null {
  const top = Math.max(0, last - MENU_WINDOW);
  const item = itemPattern(reader);
  for (let end = last; end >= top; end--) {
    if (!item.test(lines[end]!)) continue;
    const menu = menuEndingAt(lines, end, top, reader);
    if (!menu) continue;
    const pointed = menu.highlighted !== -1;
    if (reader.pointerMenusOnly && !pointed) return null;
    if (!pointed && textBelow(lines, end, last, reader, item) > BELOW_PLAIN_MENU) return null;
    return menu;
  }
  return null;
}

/** Lines of text below a menu that ends at `end` (counted only once a menu is found: most screens have none). */
function textBelow(
  lines: readonly string[],
  end: number,
  last: number,
  reader: AgentReader,
  item: RegExp,
): number {
  let n = 0;
  for (let i = end + 1; i <= last; i++) {
    const line = lines[i]!;
    if (!item.test(line) && meaningful(line) !== null && !reader.hints.test(line.trim())) n++;
  }
  return n;
}

/**
 * The question above a dialog: from the dialog's top (a rule, the history's last line) or from the
 * paragraph that asks, to the line with the question mark; then the lines that show what it is
 * about (`$ command`). Lines are joined with " · ".
 */
function questionAbove(lines: readonly string[], start: number, reader: AgentReader): string | null {
  const floor = Math.max(0, start - QUESTION_WINDOW);
  let top = floor;
  let bounded = false;
  for (let i = start - 1; i >= floor; i--) {
    if (reader.dialogTop?.test(lines[i]!.trim())) {
      top = i + 1;
      bounded = true;
      break;
    }
  }
  const block = lines.slice(top, start).map((l) => l.trim());
  let asks = -1;
  for (let i = block.length - 1; i >= 0; i--) {
    if (block[i]!.includes("?") && !reader.hints.test(block[i]!)) {
      asks = i;
      break;
    }
  }
  let head: string[];
  if (bounded) head = block.slice(0, asks === -1 ? block.length : asks + 1);
  else if (asks !== -1) head = paragraphEndingAt(block, asks);
  else {
    let end = block.length - 1;
    while (end >= 0 && block[end] === "") end--;
    head = end >= 0 ? paragraphEndingAt(block, end) : [];
  }
  if (asks !== -1 && head.length > 0) {
    const asked = head[head.length - 1]!;
    head[head.length - 1] = asked.slice(0, asked.indexOf("?") + 1);
  }
  const about =
    asks === -1 || !reader.dialogCommand
      ? []
      : block.slice(asks + 1).filter((l) => reader.dialogCommand!.test(l));
  const parts = [...head, ...about]
    .filter((l) => !reader.hints.test(l))
    .map(meaningful)
    .filter((l): l is string => l !== null);
  return parts.length > 0 ? parts.join(" · ") : null;
}

function yesNo(line: string): Dialog | null {
  const match = YES_NO.exec(line);
  if (!match) return null;
  const choices = [match[1]!.toLowerCase(), match[2]!.toLowerCase()];
  return {
    kind: "yes-no",
    question: meaningful(line),
    items: choices.map((c) => ({ text: c, key: c })),
    highlighted: -1,
  };
}

/** "Press Enter to continue" at the bottom: one choice, Enter; the question is the heading above. */
function continueDialog(lines: readonly string[], last: number): Dialog | null {
  const line = lines[last]!.trim();
  if (!CONTINUE.test(line)) return null;
  let heading: string | null = null;
  for (let i = last - 1; i >= Math.max(0, last - QUESTION_WINDOW); i--) {
    const text = meaningful(lines[i]!);
    if (text?.endsWith(":")) {
      heading = text;
      break;
    }
  }
  return {
    kind: "continue",
    question: [heading, meaningful(line)].filter(Boolean).join(" · "),
    items: [{ text: "continue", key: "\r" }],
    highlighted: 0,
  };
}

/** The dialog at the bottom of the screen, if one is up. */
export function findDialog(lines: readonly string[], last: number, reader: AgentReader): Dialog | null {
  const bottom = lines[last]!;
  const asked = yesNo(bottom) ?? continueDialog(lines, last);
  if (asked) return asked;
  const menu = findMenu(lines, last, reader);
  if (!menu) return null;
  return {
    kind: "menu",
    question: questionAbove(lines, menu.start, reader) ?? belowMenu(lines, menu.end, last),
    items: menu.items,
    highlighted: menu.highlighted,
  };
}

/** A menu with nothing above it asks on the prompt line under it ("Choose 1-3:"). */
function belowMenu(lines: readonly string[], end: number, last: number): string | null {
  for (let i = end + 1; i <= last; i++) {
    const text = meaningful(lines[i]!);
    if (text !== null) return text;
  }
  return null;
}
