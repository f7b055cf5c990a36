import assert from "node:assert/strict";
import { test } from "node:test";
import { eventLine } from "../src/cli/commands/events.js";
import type { FeedEvent } from "../src/protocol/index.js";

function event(kind: FeedEvent["kind"], why: string, text: string): FeedEvent {
  return { id: 1, at: "2026-11-30T12:34:56.000Z", kind, why, text, who: "user", whoId: null, jobs: ["a1"] };
}

test("an event line says its kind once when the why is the same word, both when not", () => {
  assert.equal(
    eventLine(event("reply", "reply", "planner: go on")),
    `12:34:56  ${"reply".padEnd(20)}  planner: go on`,
  );
  assert.equal(
    eventLine(event("reply", "typed", "deploy: n")),
    `12:34:56  ${"reply/typed".padEnd(20)}  deploy: n`,
  );
  assert.equal(eventLine(event("job", "start", "x")), `12:34:56  ${"job/start".padEnd(20)}  x`);
});

test("a question of several lines goes on under its first line, indented to it", () => {
  const indent = " ".repeat(`12:34:56  ${"state".padEnd(20)}  `.length);
  assert.equal(
    eventLine(event("state", "state", "deploy asks: Deploy to prod?\n1. yes\n2. no")),
    `12:34:56  ${"state".padEnd(20)}  deploy asks: Deploy to prod?\n${indent}1. yes\n${indent}2. no`,
  );
});
