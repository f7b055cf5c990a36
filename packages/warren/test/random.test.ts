import assert from "node:assert/strict";
import { test } from "node:test";
import { SeededRandom } from "../src/engine/random.js";

test("the same seed gives the same sequence, another seed another", () => {
  const a = new SeededRandom(7);
  const b = new SeededRandom(7);
  const c = new SeededRandom(8);
  const seqA = Array.from({ length: 50 }, () => a.next());
  const seqB = Array.from({ length: 50 }, () => b.next());
  const seqC = Array.from({ length: 50 }, () => c.next());
  assert.deepEqual(seqA, seqB);
  assert.notDeepEqual(seqA, seqC);
  for (const x of seqA) assert.ok(x >= 0 && x < 1);
});

test("shuffled keeps every item and depends on the seed", () => {
  const items = Array.from({ length: 20 }, (_, i) => i);
  const s1 = new SeededRandom(1).shuffled(items);
  assert.deepEqual(
    s1.slice().sort((x, y) => x - y),
    items,
  );
  assert.deepEqual(new SeededRandom(1).shuffled(items), s1);
  assert.notDeepEqual(new SeededRandom(2).shuffled(items), s1);
});
