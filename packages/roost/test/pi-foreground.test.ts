import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { ForegroundPeer } from "../src/client/foreground-peer.js";
import { foregroundId } from "../src/daemon/peers/foreground.js";
import { piCliPath } from "../src/home/pi-profile.js";
import type { FakeAnswer, FakeRequest } from "./fixtures/fake-openai.js";
import { waitFor } from "./helpers/daemon.js";
import { PI_WAIT_MS, type PiSuite, startPiSuite } from "./helpers/pi-suite.js";
import { hasTmux, tmuxServer } from "./helpers/tmux.js";

const skip = hasTmux() ? false : "tmux is not installed: the foreground pi needs a real terminal from it";

describe("an interactive pi as a foreground peer", { skip }, () => {
  const tmux = tmuxServer("roost-pi-fg");
  const sessionDir = mkdtempSync(join(tmpdir(), "roost-pi-fg-"));
  const sessionFile = join(sessionDir, "person.jsonl");
  const fgId = foregroundId(sessionFile);
  // roost's extension as built, as the daemon's own pi profile loads it: pi compiles what it loads,
  // and the source would cost each of the three pi processes here a third of a second more.
  const extension = fileURLToPath(new URL("../dist/pi/extension.js", import.meta.url));
  const piCommand = [process.execPath, piCliPath(), "-e", extension, "--session", sessionFile];
  const dialogFixture = fileURLToPath(new URL("./fixtures/dialog-extension.ts", import.meta.url));
  const answered = join(sessionDir, "answered");
  const dialogCommand = `exec ${[...piCommand.slice(0, 4), "-e", dialogFixture].map((w) => `'${w}'`).join(" ")} --session "$ROOST_JOB_DIR/session.jsonl"`;
  let suite: PiSuite;

  function script(request: FakeRequest): FakeAnswer {
    const last = request.last;
    if (request.role === "tool") return { text: `tool said: ${last.split("\n")[0]}` };
    if (last === "open a dialog") return { tools: [{ name: "ask_person", args: { until: answered } }] };
    if (last.includes("<agent-message") && last.includes("after the dialog"))
      return { text: "got it after the dialog" };
    if (last === "spawn a helper")
      return { tools: [{ name: "roost_spawn", args: { task: "helper task", name: "helper" } }] };
    if (last === "helper task") return { text: "helper result" };
    if (last === "who is there") return { tools: [{ name: "roost_agents", args: {} }] };
    if (last === "message the person")
      return { tools: [{ name: "roost_send", args: { to: fgId, message: "hello person" } }] };
    if (last.includes("<agent-message") && last.includes("hello person"))
      return { text: "the person's pi got it" };
    return { text: `answer to: ${last}` };
  }

  before(async () => {
    suite = await startPiSuite(script, {
      agentExternalMessages: true,
      agentProfiles: {
        "pi-on-file": { command: piCommand, task: "type", protocol: true },
        "pi-dialog": { command: dialogCommand, task: "type", protocol: true },
      },
    });
  });
  after(async () => {
    await tmux("kill-server").catch(() => {});
    await suite?.close();
    rmSync(sessionDir, { recursive: true, force: true });
  });

  test("registers on its first roost tool call, takes a delivery as the framed block, and collapses with a job on its file", {
    timeout: PI_WAIT_MS * 4,
  }, async () => {
    const env = { PI_CODING_AGENT_DIR: suite.piDir, PI_OFFLINE: "1", ROOST_HOME: suite.daemon.home };
    await tmux(
      "new-session",
      "-d",
      "-s",
      "fg",
      "-x",
      "120",
      "-y",
      "40",
      "-c",
      sessionDir,
      ...Object.entries(env).flatMap(([k, v]) => ["-e", `${k}=${v}`]),
      piCommand.map((w) => `'${w}'`).join(" "),
    );
    const screen = async () => (await tmux("capture-pane", "-p", "-t", "fg")).stdout;
    // pi's editor is up once its footer shows the model.
    await waitFor(
      "pi's screen",
      async () => ((await screen()).includes("fake-model") ? true : undefined),
      PI_WAIT_MS,
    );
    await tmux("send-keys", "-t", "fg", "-l", "who is there");
    await tmux("send-keys", "-t", "fg", "Enter");
    await suite.model.waitFor((r) => r.role === "tool" && r.last.includes('"peers"'), 0, PI_WAIT_MS);

    const sender = await suite.dispatch("message the person", { name: "sender" });
    const sent = await suite.model.waitFor(
      (r) => r.role === "tool" && r.last.includes("hello person") === false && /\(.*external\)/.test(r.last),
      0,
      PI_WAIT_MS,
    );
    assert.match(sent.last, /^delivered/);
    await suite.model.waitFor(
      (r) => r.last.includes("hello person") && r.last.includes("<agent-message"),
      0,
      PI_WAIT_MS,
    );
    await waitFor(
      "the framed block",
      async () => ((await screen()).includes("✉ message from sender (external)") ? true : undefined),
      PI_WAIT_MS,
    );

    // A child of the person's pi is a pi job; its report comes back to the person's pi.
    await tmux("send-keys", "-t", "fg", "-l", "spawn a helper");
    await tmux("send-keys", "-t", "fg", "Enter");
    await suite.model.waitFor((r) => r.last === "helper task", 0, PI_WAIT_MS);
    await waitFor(
      "the report's block",
      async () => ((await screen()).includes("✉ report from helper (child)") ? true : undefined),
      PI_WAIT_MS,
    );

    // A job on the person's session file is the same peer: the live foreground one is listed.
    const onFile = await suite.dispatch("on the file", { profile: "pi-on-file", name: "on-file" });
    await suite.row(onFile.id, (r) => r.state === "done", "the job on the file done");
    const probe = await ForegroundPeer.register({
      session: join(sessionDir, "probe"),
      name: "probe",
      home: suite.daemon.home,
    });
    try {
      const ids = (await probe.peers()).peers.map((p) => p.id);
      assert.ok(ids.includes(fgId), JSON.stringify(ids));
      assert.ok(!ids.includes(onFile.id), JSON.stringify(ids));
      assert.ok(ids.includes(sender.id));
    } finally {
      probe.close();
    }
  });

  test("while a dialog is open in a pi job, agent items wait and their senders are told so", {
    timeout: PI_WAIT_MS * 3,
  }, async () => {
    const job = await suite.dispatch("open a dialog", { profile: "pi-dialog", name: "dialog" });
    const row = await suite.row(job.id, (r) => r.waitingFor === "dialog", "the dialog on the row");
    assert.equal(row.state, "blocked");
    const probe = await ForegroundPeer.register({
      session: join(sessionDir, "probe-2"),
      name: "probe-2",
      home: suite.daemon.home,
    });
    try {
      const sent = await probe.send(job.id, "after the dialog");
      assert.equal(sent.outcome, "waiting on a dialog");
      writeFileSync(answered, "");
      const request = await suite.model.waitFor((r) => r.last.includes("after the dialog"), 0, PI_WAIT_MS);
      // The item came after the person's answer: the tool's result is already in the run.
      assert.ok(
        request.messages.some((m) => m.role === "tool" && String(m.content).includes("the person answered")),
      );
      await suite.row(job.id, (r) => r.state === "done" && r.pending === 0, "done with the item");
    } finally {
      probe.close();
    }
  });
});
