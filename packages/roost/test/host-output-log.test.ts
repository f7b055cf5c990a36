import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { OutputLog } from "../src/daemon/host/output-log.js";

function logDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), "roost-host-log-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test("the terminal log fills to its cap exactly, and the next byte rotates it", (t) => {
  const path = join(logDir(t), "terminal.log");
  const log = new OutputLog(path, 1000);
  log.append("a".repeat(600));
  log.append("b".repeat(400));
  log.flush();
  assert.equal(readFileSync(path, "utf8"), "a".repeat(600) + "b".repeat(400));
  assert.equal(existsSync(`${path}.1`), false);
  log.append("c");
  log.close();
  assert.equal(readFileSync(`${path}.1`, "utf8"), "a".repeat(600) + "b".repeat(400));
  assert.equal(readFileSync(path, "utf8"), "c");
});

test("a log opened again goes on from the size it has, and counts bytes, not characters", (t) => {
  const path = join(logDir(t), "terminal.log");
  const first = new OutputLog(path, 10);
  first.append("12345");
  first.close();
  const again = new OutputLog(path, 10);
  // "é" is two bytes: 5 + 3 + 2 = 10 fills the cap exactly; the next character rotates.
  again.append("abcé");
  again.flush();
  assert.equal(readFileSync(path, "utf8"), "12345abcé");
  again.append("z");
  again.close();
  assert.equal(readFileSync(`${path}.1`, "utf8"), "12345abcé");
  assert.equal(readFileSync(path, "utf8"), "z");
});

test("output is written in batches: nothing per chunk until the delay or the batch size", async (t) => {
  const path = join(logDir(t), "terminal.log");
  const log = new OutputLog(path, 1024 * 1024);
  log.append("small");
  assert.equal(existsSync(path), false);
  await new Promise((resolve) => setTimeout(resolve, 250));
  assert.equal(readFileSync(path, "utf8"), "small");
  log.append("x".repeat(64 * 1024));
  assert.equal(readFileSync(path, "utf8").length, 5 + 64 * 1024);
  log.close();
});

test("a log never makes its folder again: a removed job's folder stays removed", (t) => {
  const folder = join(logDir(t), "job");
  mkdirSync(folder);
  const path = join(folder, "terminal.log");
  const log = new OutputLog(path, 1000);
  log.append("before");
  log.close();
  rmSync(folder, { recursive: true });
  log.append("after the folder went");
  log.flush();
  assert.equal(existsSync(folder), false);
});

test("an ended log drops what comes after: output read out late writes nothing", (t) => {
  const path = join(logDir(t), "terminal.log");
  const log = new OutputLog(path, 1000);
  log.append("kept");
  log.end();
  log.append("late");
  log.flush();
  log.close();
  assert.equal(readFileSync(path, "utf8"), "kept");
});
