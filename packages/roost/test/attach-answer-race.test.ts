// `roost attach` against a scripted daemon that sends the program's output in the same read as
// the attach's answer, as the real one does when the output came while the answer was on its way:
// that output is drawn after the screen, never lost.
import assert from "node:assert/strict";
import { PassThrough, Writable } from "node:stream";
import { test } from "node:test";
import { attachTerminal } from "../src/cli/attach.js";
import { DaemonClient } from "../src/client/daemon-client.js";
import type { AttachResult } from "../src/protocol/attach.js";
import { scriptedDaemonSuite } from "./helpers/scripted-daemon.js";

const { scripted } = scriptedDaemonSuite();

test("output sent together with the attach's answer is drawn after the screen", async () => {
  const daemon = await scripted();
  const screen: AttachResult = {
    id: "job-1",
    name: "winch",
    kind: "terminal",
    ended: false,
    lifecycle: "running",
    exitCode: null,
    screen: "THE SCREEN",
    keyboard: true,
  };
  daemon.answer = (request) => {
    if (request.op !== "attach") return request.op === "hello" ? { result: { protocol: 1 } } : { result: {} };
    daemon.sendTogether([
      { id: request.id, ok: true, result: screen },
      { event: "terminal-output", id: "job-1", data: "25 90" },
    ]);
    // The end comes on its own, later: the attach ends whether or not the output above was drawn.
    setTimeout(() => daemon.send({ event: "terminal-end", id: "job-1", exitCode: 0, signal: null }), 100);
    return "silent";
  };
  const client = await DaemonClient.connect({ socketPath: daemon.socketPath });
  let shown = "";
  const output = new Writable({
    write(chunk, _encoding, done) {
      shown += chunk.toString();
      done();
    },
  });
  try {
    const outcome = await attachTerminal(client, "winch", { input: new PassThrough(), output });
    assert.equal(outcome, "ended");
    assert.ok(shown.indexOf("THE SCREEN") !== -1, shown);
    assert.ok(shown.indexOf("25 90") > shown.indexOf("THE SCREEN"), `the output after the screen: ${shown}`);
    assert.match(shown, /winch \(job-1\) ended \(exit code 0\)/);
  } finally {
    client.close();
  }
});
