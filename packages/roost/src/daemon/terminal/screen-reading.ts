/**
 * Reading a terminal agent's row from its screen, with its reader (`agent-reader.ts`): a dialog
 * waiting for a choice, the agent at its input prompt, an open question, its working line, its last
 * answer; else the window title or the last meaningful line.
 */
import { LIMITS } from "../../protocol/index.js";
import type { ScreenSnapshot } from "../host/api.js";
import type { AgentReader } from "./agent-reader.js";
import { type Dialog, findDialog } from "./dialogs.js";
import { generic } from "./readers/generic.js";
import { clip, lastContentIndex, lastMeaningfulLine, meaningful, paragraphEndingAt } from "./screen-lines.js";

export interface ScreenReading {
  summary: string | null;
  /** Set when the program waits for the user: what it asks. */
  question: string | null;
  /** The answers a dialog offers (`y`/`n`, a menu's items); empty for typed text. */
  choices: string[];
  /** The dialog up, if any: its choices are chosen by their keys, never typed as text. */
  dialog: Dialog | null;
  /**
   * The program takes typed text now: at its input `prompt` (a known agent, idle), or a `question`
   * (a line ending in `?` with the cursor after it, a profile's `blockedPatterns`).
   */
  input: "prompt" | "question" | null;
  /** A known agent shows its working line. */
  working: boolean;
}

/** How many lines above the bottom a working line or a pattern is looked for. */
const LOOK_BACK = 12;

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
  for (let i = last; i >= 0 && i >= last - LOOK_BACK; i--) {
    const line = lines[i]!;
    for (const pattern of patterns) {
      const match = pattern.exec(line);
      if (match) return meaningful(match.groups?.question ?? line) ?? line.trim();
    }
  }
  return null;
}

/** The step a known agent's working line names ("Pollinating…"), spinner and timer left out. */
function workingStep(lines: string[], last: number, reader: AgentReader): string | null {
  if (!reader.working) return null;
  for (let i = last; i >= 0 && i >= last - LOOK_BACK; i--) {
    const match = reader.working.exec(lines[i]!);
    if (match) return match.groups?.step?.trim() ?? meaningful(lines[i]!);
  }
  return null;
}

function atPrompt(screen: ScreenSnapshot, reader: AgentReader): boolean {
  const { y } = screen.cursor;
  const line = screen.lines[y];
  if (reader.prompt === null || line === undefined || !reader.prompt.test(`${line.trimEnd()} `)) return false;
  return reader.promptAbove === null || reader.promptAbove.test(screen.lines[y - 1]?.trim() ?? "");
}

/** Whether the input line is still the one the agent draws as it starts (`readyBelow`). */
function startingUp(screen: ScreenSnapshot, reader: AgentReader): boolean {
  if (reader.readyBelow === null) return false;
  const below = screen.lines.slice(screen.cursor.y + 1).find((line) => line.trim() !== "");
  return below === undefined || !reader.readyBelow.test(below);
}

/** The paragraph above the line that tops the input box: the upper of the two lowest such lines. */
function answerAboveBox(lines: string[], last: number, box: RegExp): string | null {
  const frame: number[] = [];
  for (let i = last; i >= 0 && frame.length < 2; i--) if (box.test(lines[i]!.trim())) frame.push(i);
  let end = (frame[1] ?? frame[0] ?? 0) - 1;
  while (end >= 0 && lines[end]!.trim() === "") end--;
  return end < 0 ? null : meaningful(paragraphEndingAt(lines, end).join(" "));
}

/** The answer whose first line is `lines[i]`: that line and the lines that continue it. */
function answerAt(
  lines: string[],
  i: number,
  last: number,
  reader: AgentReader,
  first: string,
): string | null {
  const parts = [first];
  for (let j = i + 1; j <= last; j++) {
    const next = lines[j]!;
    if (!/^\s{2}\S/.test(next) || /^\s*[└⎿]/.test(next) || reader.answerEnd?.test(next.trim())) break;
    parts.push(next.trim());
  }
  return meaningful(parts.join(" "));
}

/**
 * The agent's last answer: its first line and the lines that continue it; or, when the person
 * refused what it was about to do after that, what was refused ("refused: Bash(rm x)").
 */
function lastAnswer(lines: string[], last: number, reader: AgentReader): string | null {
  if (reader.answerAbove) return answerAboveBox(lines, last, reader.answerAbove);
  if (!reader.answer) return null;
  let refused: RegExpExecArray | null = null;
  for (let i = last; i >= 0; i--) {
    if (refused === null) refused = reader.refused?.exec(lines[i]!) ?? null;
    if (refused?.groups?.what) return meaningful(`refused: ${refused.groups.what}`);
    const match = reader.answer.exec(lines[i]!);
    if (!match) continue;
    const answer = answerAt(lines, i, last, reader, match.groups?.text ?? lines[i]!.trim());
    return refused && answer ? `refused: ${answer}` : answer;
  }
  return null;
}

/** A title without the spinner glyph some agents put before it. */
function titleText(title: string): string | null {
  return meaningful(title.replace(/^[^\p{L}\p{N}]+/u, ""));
}

export function readScreen(
  screen: ScreenSnapshot,
  blockedPatterns: readonly RegExp[] = [],
  reader: AgentReader = generic,
): ScreenReading {
  const { lines } = screen;
  const last = lastContentIndex(lines);
  const known = reader.prompt !== null;
  const step = last === -1 ? null : workingStep(lines, last, reader);
  const answer = last === -1 ? null : lastAnswer(lines, last, reader);
  const title = titleText(screen.title);
  const summary = known ? (step ?? answer ?? title ?? null) : (title ?? lastMeaningfulLine(lines));
  const reading: ScreenReading = {
    summary: summary === null ? null : clip(summary, LIMITS.summary),
    question: null,
    choices: [],
    dialog: null,
    input: null,
    working: step !== null,
  };
  if (last === -1) return reading;
  const ask = (question: string | null, extra: Partial<ScreenReading>): ScreenReading => ({
    ...reading,
    question: clip(question ?? "", LIMITS.question),
    working: false,
    ...extra,
  });
  const dialog = findDialog(lines, last, reader);
  if (dialog) {
    const items = dialog.items
      .slice(0, LIMITS.choices)
      .map((item) => ({ ...item, text: clip(item.text, LIMITS.choice) }));
    const clipped = { ...dialog, items };
    return ask(dialog.question, { dialog: clipped, choices: items.map((item) => item.text) });
  }
  const matched = patternPrompt(lines, last, blockedPatterns);
  if (matched !== null) return ask(matched, { input: "question" });
  if (step !== null) return reading;
  if (atPrompt(screen, reader)) return startingUp(screen, reader) ? reading : { ...reading, input: "prompt" };
  const question = openQuestion(screen);
  if (question !== null) return ask(question, { input: "question" });
  return reading;
}
