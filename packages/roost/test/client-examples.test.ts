import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { DaemonClient } from "../src/client/daemon-client.js";
import type { JobRow } from "../src/protocol/rows.js";
import { startTestDaemon, type TestDaemon, waitFor } from "./helpers/daemon.js";

/** Waits that include an agent starting (through tsx, or python) get this long on a busy machine. */
const AGENT_START_MS = 60_000;

const root = fileURLToPath(new URL("../../..", import.meta.url)).replace(/\/$/, "");
const examples = fileURLToPath(new URL("../examples", import.meta.url));
/** The examples' roost.json as the README's walkthrough installs it. */
const config = JSON.parse(readFileSync(join(examples, "roost.json"), "utf8").replaceAll("@ROOT@", root));

/** A folder to count: 3 + 2 words of text, and a binary file that is left out. */
function folderToCount(): string {
  const dir = mkdtempSync(join(tmpdir(), "roost-words-"));
  writeFileSync(join(dir, "a.txt"), "one two\nthree");
  mkdirSync(join(dir, "sub"));
  writeFileSync(join(dir, "sub", "b.md"), "four  five\n");
  writeFileSync(join(dir, "blob.bin"), Buffer.from([104, 105, 0, 32, 104, 105]));
  return dir;
}

describe("the example agents", () => {
  let daemon: TestDaemon;
  let cwd: string;
  before(async () => {
    daemon = await startTestDaemon({ config });
    cwd = folderToCount();
  });
  after(async () => {
    try {
      await daemon?.stop();
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  for (const profile of ["word-count-ts", "word-count-py"]) {
    test(`${profile} counts the words of its folder in its row, takes replies, and ends on done`, async () => {
      const client = await DaemonClient.connect({ home: daemon.home });
      try {
        const { id } = await client.call("dispatch", { profile, task: "count", cwd });
        const rowWhen = (what: string, predicate: (r: JobRow) => boolean) =>
          waitFor(
            what,
            async () => {
              const row = (await client.call("list", {})).rows.find((r) => r.id === id);
              return row && predicate(row) ? row : undefined;
            },
            AGENT_START_MS,
          );
        const first = await rowWhen(
          "the count",
          // Its question, not the "ready" it reported before it took the task (acked meanwhile).
          (r) => r.reported && r.waitingFor === "question" && r.pending === 0,
        );
        assert.equal(first.summary, "5 words in 2 files of . (most: a.txt, 3)");
        assert.equal(first.waitingFor, "question");
        assert.deepEqual(first.agent, { name: "word-count", version: "1.0" });
        await client.call("reply", { id, text: "sub" });
        await rowWhen(
          "the folder's count",
          (r) => r.summary === "2 words in 1 files of sub (most: sub/b.md, 2)",
        );
        await client.call("reply", { id, text: "done" });
        const ended = await rowWhen("the end", (r) => r.lifecycle === "done");
        assert.equal(ended.summary, "finished: 7 words counted in all");
        assert.equal(ended.pending, 0);
      } finally {
        client.close();
      }
    });
  }

  test("outside roost each example counts once and prints it", async () => {
    const run = promisify(execFile);
    const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };
    const ts = await run(join(root, "node_modules", ".bin", "tsx"), [join(examples, "word-count-agent.ts")], {
      cwd,
      env,
    });
    const py = await run("python3", [join(examples, "word_count_agent.py"), "sub"], { cwd, env });
    assert.equal(ts.stdout.trim(), "5 words in 2 files of . (most: a.txt, 3)");
    assert.equal(py.stdout.trim(), "2 words in 1 files of sub (most: sub/b.md, 2)");
  });
});
