// A report's open fields have a shape and a size: bounded depth and length, finite numbers.
import assert from "node:assert/strict";
import { test } from "node:test";
import { LIMITS, normalizeReport, RoostError } from "../src/protocol/index.js";

function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { tokens: 1 };
  for (let i = 1; i < levels; i++) value = { inner: value };
  return value;
}

function refused(report: object, pattern: RegExp): void {
  assert.throws(
    () => normalizeReport(report),
    (err: unknown) => err instanceof RoostError && err.code === "bad_request" && pattern.test(err.message),
  );
}

test("usage: at most 4 levels deep; 100,000 levels are refused without walking them", () => {
  assert.deepEqual(
    normalizeReport({ usage: nested(LIMITS.openFieldDepth) }).usage,
    nested(LIMITS.openFieldDepth),
  );
  refused({ usage: nested(LIMITS.openFieldDepth + 1) }, /usage must be at most 4 levels deep/);
  refused({ usage: JSON.parse(`${"[".repeat(100_000)}${"]".repeat(100_000)}`) }, /usage must be an object/);
  refused({ usage: JSON.parse(`${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`) }, /levels deep/);
});

test("usage: at most 16 KiB of JSON, one character more is refused", () => {
  const fits = (extra: number) => ({
    text: "x".repeat(LIMITS.openFieldChars - '{"text":""}'.length + extra),
  });
  assert.equal(JSON.stringify(normalizeReport({ usage: fits(0) }).usage).length, LIMITS.openFieldChars);
  refused({ usage: fits(1) }, /at most 16384 characters/);
});

test("numbers must be finite: 1e400 in usage or context is refused, not turned into null", () => {
  refused(JSON.parse('{"usage": {"cost": 1e400}}'), /usage must be a finite number/);
  refused(JSON.parse('{"context": {"tokens": 1e400, "window": 1, "percent": 1}}'), /context.tokens/);
  refused({ context: { tokens: 1, window: "1", percent: 1 } }, /context.window must be a finite number/);
  assert.deepEqual(normalizeReport({ context: { tokens: 1, window: 2, percent: 50 } }).context, {
    tokens: 1,
    window: 2,
    percent: 50,
  });
});
