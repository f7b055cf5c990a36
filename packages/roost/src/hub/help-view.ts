import { DIALOG_KEYS, LIST_KEYS } from "./key-map.js";
import { fit } from "./row-view.js";
import { bold, cyan, dim } from "./style.js";

/** The help overlay: every key, in two columns when they do not fit in one, boxed, `height` lines. */
export function helpLines(width: number, height: number): string[] {
  const items = [...LIST_KEYS, ...DIALOG_KEYS].map((k) => ({ label: k.label, help: k.help }));
  const inner = Math.max(10, width - 2);
  const room = Math.max(1, height - 3);
  const columns = items.length > room && inner >= 60 ? 2 : 1;
  const perColumn = Math.ceil(items.length / columns);
  const columnWidth = Math.floor(inner / columns);
  const cell = (i: number) => {
    const item = items[i];
    if (!item) return fit("", columnWidth);
    return fit(` ${cyan(item.label.padEnd(7))} ${item.help}`, columnWidth);
  };
  const body: string[] = [];
  for (let r = 0; r < perColumn; r++) {
    let line = "";
    for (let c = 0; c < columns; c++) line += cell(c * perColumn + r);
    body.push(line);
  }
  const top = `┌${fit(bold(" roost hub · keys "), inner).replace(/ +$/, (s) => "─".repeat(s.length))}┐`;
  const bottom = `└${fit(dim(" any key closes "), inner).replace(/ +$/, (s) => "─".repeat(s.length))}┘`;
  const lines = [top, ...body.slice(0, room).map((l) => `│${fit(l, inner)}│`), bottom];
  while (lines.length < height) lines.push("");
  return lines.slice(0, height).map((l) => fit(l, width));
}
