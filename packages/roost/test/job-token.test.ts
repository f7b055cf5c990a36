import assert from "node:assert/strict";
import { test } from "node:test";
import { newJobToken, tokenHash, tokenMatches } from "../src/daemon/jobs/job-token.js";

test("a job's token matches its kept hash, and no other token does, before and after a match is remembered", () => {
  const token = newJobToken();
  const hash = tokenHash(token);
  const wrong = newJobToken();
  assert.equal(tokenMatches(hash, wrong), false);
  assert.equal(tokenMatches(hash, token), true);
  // Remembered now: the same checks, without hashing again.
  assert.equal(tokenMatches(hash, token), true);
  assert.equal(tokenMatches(hash, wrong), false);
  assert.equal(tokenMatches(hash, `${token}x`), false);
  assert.equal(tokenMatches(hash, ""), false);
});

test("a new start's hash takes only its own token, not the one matched before it", () => {
  const first = newJobToken();
  const second = newJobToken();
  assert.equal(tokenMatches(tokenHash(first), first), true);
  assert.equal(tokenMatches(tokenHash(second), first), false);
  assert.equal(tokenMatches(tokenHash(second), second), true);
  assert.equal(tokenMatches("", first), false);
});
