/** Reading a job's screen model (an @xterm/headless Terminal) into a ScreenSnapshot. */
import type { Terminal } from "@xterm/headless";
import type { ScreenSnapshot } from "./api.js";

export function snapshotOf(terminal: Terminal, title: string, lastOutputAt: number): ScreenSnapshot {
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < terminal.rows; y++) {
    lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "");
  }
  return {
    lines,
    cursor: { x: buffer.cursorX, y: buffer.cursorY },
    cols: terminal.cols,
    rows: terminal.rows,
    title,
    alternate: buffer.type === "alternate",
    bracketedPaste: terminal.modes.bracketedPasteMode,
    lastOutputAt,
  };
}

export function sameScreen(a: ScreenSnapshot, b: ScreenSnapshot): boolean {
  return (
    a.lastOutputAt === b.lastOutputAt &&
    a.cursor.x === b.cursor.x &&
    a.cursor.y === b.cursor.y &&
    a.cols === b.cols &&
    a.rows === b.rows &&
    a.title === b.title &&
    a.alternate === b.alternate &&
    a.bracketedPaste === b.bracketedPaste &&
    a.lines.length === b.lines.length &&
    a.lines.every((line, i) => line === b.lines[i])
  );
}
