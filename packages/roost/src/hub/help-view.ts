import { boxLines } from "./box-view.js";
import { DIALOG_KEYS, LIST_KEYS } from "./key-map.js";
import { fit } from "./row-view.js";
import { bold, cyan } from "./style.js";

/** What the marks on a row mean, for the help. */
const LEGEND: { label: string; help: string }[] = [
  { label: "●", help: "working" },
  { label: "◦", help: "idle" },
  { label: "?", help: "waiting for you (its question below it)" },
  { label: "○", help: "starting, or exited" },
  { label: "↯", help: "interrupted: went down with roost or the machine (a reply or o brings it back)" },
  { label: "✓ ✗ ■", help: "done, failed, stopped" },
  { label: "✉N", help: "N replies it has not taken yet" },
  { label: "⚑", help: "pinned" },
  { label: "↳", help: "spawned by the row above" },
  { label: "#1a2b", help: "an id beside a name other rows share" },
];

/** The help's lines, unboxed: every key (two columns when wide), then the row symbols. */
export function helpBody(width: number): string[] {
  const items = [...LIST_KEYS, ...DIALOG_KEYS].map((k) => ({ label: k.label, help: k.help }));
  const inner = Math.max(10, width - 2);
  const columns = inner >= 80 ? 2 : 1;
  const perColumn = Math.ceil(items.length / columns);
  const columnWidth = Math.floor(inner / columns);
  const cell = (item: { label: string; help: string } | undefined) =>
    item ? fit(` ${cyan(item.label.padEnd(7))} ${item.help}`, columnWidth) : fit("", columnWidth);
  const body: string[] = [];
  for (let r = 0; r < perColumn; r++) {
    let line = "";
    for (let c = 0; c < columns; c++) line += cell(items[c * perColumn + r]);
    body.push(line);
  }
  body.push("", bold(" On a row"));
  for (const item of LEGEND) body.push(` ${cyan(item.label.padEnd(7))} ${item.help}`);
  return body;
}

/** The help overlay: every key and the row symbols, boxed and scrolled, `height` lines. */
export function helpLines(width: number, height: number, scroll: number): string[] {
  return boxLines("roost hub · keys", helpBody(width), width, height, scroll, "Esc closes");
}
