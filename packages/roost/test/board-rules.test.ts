// The task board's rules (who may do what to a task, `after`, the 200 cap) and the sliding windows
// that bound messages and spawns: pure parts, run on a real store in a temp folder and a fake clock.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { BoardActor } from "../src/daemon/board/actor.js";
import { BoardRules } from "../src/daemon/board/board-rules.js";
import { RateWindow } from "../src/daemon/peers/rate-window.js";
import { Store } from "../src/daemon/store/store.js";
import { BOARD_LIMITS, RoostError } from "../src/protocol/index.js";

const user: BoardActor = { kind: "user" };
const concierge: BoardActor = { kind: "concierge", id: "c1", name: "concierge" };
const ann: BoardActor = { kind: "session", id: "a1", name: "ann" };
const bob: BoardActor = { kind: "session", id: "b1", name: "bob" };

/** A board on a fresh store; `live` says which sessions can still hold a claim. */
async function withBoard(run: (board: BoardRules, live: Set<string>) => void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "roost-board-"));
  const store = new Store(join(dir, "roost.db"));
  const live = new Set(["a1", "b1"]);
  try {
    run(
      new BoardRules(
        store,
        () => new Date(0).toISOString(),
        (id) => live.has(id),
      ),
      live,
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function refused(code: string, action: () => unknown): void {
  assert.throws(action, (err: unknown) => err instanceof RoostError && err.code === code);
}

test("a task waits on its after: blocked until each is done or dropped", () =>
  withBoard((board) => {
    const first = board.add(user, "first", null, [])[0]!.task;
    const second = board.add(user, "second", null, [first.id])[0]!.task;
    assert.deepEqual(board.counts(), { open: 1, claimed: 0, blocked: 1, done: 0 });
    refused("blocked", () => board.claim(ann, second.id));
    board.claim(ann, first.id);
    board.done(ann, first.id, "ok");
    assert.equal(board.claim(bob, second.id).at(-1)?.why, "claim");
    refused("bad_request", () => board.add(user, "waits on nothing there", null, [999]));
  }));

test("claims: the user and the concierge do not claim; a live holder is a conflict; a gone one's task is taken over", () =>
  withBoard((board, live) => {
    const task = board.add(user, "t", null, [])[0]!.task;
    refused("unsupported", () => board.claim(user, task.id));
    refused("unsupported", () => board.claim(concierge, task.id));
    board.claim(ann, task.id);
    assert.deepEqual(board.claim(ann, task.id), []);
    refused("conflict", () => board.claim(bob, task.id));
    live.delete("a1");
    assert.deepEqual(
      board.claim(bob, task.id).map((c) => c.why),
      ["release", "claim"],
    );
    assert.equal(board.get(task.id).owner?.id, "b1");
  }));

test("done and release are the holder's, or the user's and the concierge's (the holder is named); drop and assign are theirs only", () =>
  withBoard((board) => {
    const task = board.add(user, "t", null, [])[0]!.task;
    refused("bad_request", () => board.done(ann, task.id, null));
    board.claim(ann, task.id);
    refused("unsupported", () => board.release(bob, task.id));
    assert.deepEqual(board.release(concierge, task.id)[0]?.holder, { id: "a1", name: "ann" });
    refused("unsupported", () => board.drop(ann, task.id));
    refused("unsupported", () => board.checkAssignable(ann, task.id));
    board.drop(user, task.id);
    refused("bad_request", () => board.drop(user, task.id));
    refused("bad_request", () => board.claim(ann, task.id));
    refused("not_found", () => board.get(999));
  }));

test("200 tasks at most: the oldest done or dropped one makes room; with none, the board is full", () =>
  withBoard((board) => {
    const ids = Array.from(
      { length: BOARD_LIMITS.tasks },
      (_, i) => board.add(user, `t${i}`, null, [])[0]!.task.id,
    );
    refused("full", () => board.add(user, "one more", null, []));
    board.drop(user, ids[5]!);
    board.drop(user, ids[3]!);
    board.add(user, "one more", null, []);
    assert.equal(board.list().length, BOARD_LIMITS.tasks);
    // The oldest finished one went: #4 (ids[3]) was added before #6 (ids[5]).
    assert.ok(!board.list().some((t) => t.id === ids[3]));
    assert.ok(board.list().some((t) => t.id === ids[5]));
  }));

test("a rate window counts what happened within it, per key, and forgets what falls out", () => {
  let now = 1_000_000;
  const window = new RateWindow(60_000, () => now, 100);
  window.record("a");
  now += 30_000;
  window.record("a");
  window.record("b");
  assert.deepEqual([window.count("a"), window.count("b"), window.count("c")], [2, 1, 0]);
  // Exactly a minute after the first: it is out (the window is the last 60 s, its start excluded).
  now += 30_000;
  assert.equal(window.count("a"), 1);
  now += 29_999;
  assert.equal(window.count("a"), 1);
  now += 1;
  assert.deepEqual([window.count("a"), window.count("b")], [0, 0]);
});
