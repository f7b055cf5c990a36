import assert from "node:assert/strict";
import { test } from "node:test";
import type { ScreenSnapshot } from "../src/daemon/host/api.js";
import { applyScreenChange, screenChange } from "../src/daemon/host/screen-change.js";

function screen(lines: string[], extra: Partial<ScreenSnapshot> = {}): ScreenSnapshot {
  return {
    lines,
    cursor: { x: 0, y: lines.length - 1 },
    cols: 80,
    rows: lines.length,
    title: "",
    alternate: false,
    bracketedPaste: false,
    lastOutputAt: 0,
    ...extra,
  } as ScreenSnapshot;
}

/** A small deterministic generator, so that a failure is the same on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

test("a program printing one line more is told as one line scrolled and one changed", () => {
  const before = screen(["$ make", "cc a.c", "cc b.c", ""]);
  const now = screen(["cc a.c", "cc b.c", "cc c.c", ""]);
  const change = screenChange(before, now)!;
  assert.equal(change.scrolled, 1);
  assert.deepEqual(change.changed, [[2, "cc c.c"]]);
  assert.deepEqual(applyScreenChange(before, change), now);
});

test("the same screen is told as no line changed; the cursor and title still go", () => {
  const before = screen(["a", "b"]);
  const now = screen(["a", "b"], { cursor: { x: 3, y: 0 }, title: "vim" });
  const change = screenChange(before, now)!;
  assert.deepEqual([change.scrolled, change.changed], [0, []]);
  assert.deepEqual(applyScreenChange(before, change), now);
});

test("a screen of another size is not told as a change", () => {
  assert.equal(screenChange(screen(["a", "b"]), screen(["a", "b", "c"])), null);
  assert.equal(screenChange(screen(["a", "b"]), screen(["a", "b"], { rows: 3 })), null);
});

test("any screen is rebuilt exactly from the one before and the change", () => {
  const next = random(7);
  const words = ["", "", "ok", "$ ls", "error: x", "ok", "  │ menu", "> yes"];
  const pick = () => words[Math.floor(next() * words.length)]!;
  for (let round = 0; round < 2000; round++) {
    const rows = 1 + Math.floor(next() * 12);
    const before = screen(Array.from({ length: rows }, pick));
    // Scrolled by a random amount, with lines written over here and there.
    const shift = Math.floor(next() * rows);
    const lines = Array.from({ length: rows }, (_, y) => before.lines[y + shift] ?? pick());
    for (let y = 0; y < rows; y++) if (next() < 0.2) lines[y] = pick();
    const now = screen(lines, { cursor: { x: round % 80, y: rows - 1 } });
    const change = screenChange(before, now)!;
    assert.deepEqual(applyScreenChange(before, change), now, `round ${round}`);
    assert.ok(change.changed.length <= rows);
  }
});
