import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ScreenSnapshot } from "../../src/daemon/host/api.js";

/**
 * A screen recorded from a real program (`fixtures/screens/NAME.screen`): a first line
 * `cursor X,Y`, then the screen's lines as the terminal showed them.
 */
export function recordedScreen(name: string, title = ""): ScreenSnapshot {
  const path = fileURLToPath(new URL(`../fixtures/screens/${name}.screen`, import.meta.url));
  const [head, ...lines] = readFileSync(path, "utf8").replace(/\n$/, "").split("\n");
  const [x, y] = head!.replace("cursor ", "").split(",").map(Number);
  return {
    lines: lines.map((l) => l.trimEnd()),
    cursor: { x: x!, y: y! },
    cols: 100,
    rows: lines.length,
    title,
    alternate: false,
    bracketedPaste: true,
    lastOutputAt: 0,
  };
}
