// How an interrupted row reads (its process went down with the process host): in the hub, on
// `roost ls`, to the concierge; and what a reply to it does.
import assert from "node:assert/strict";
import { test } from "node:test";
import { visibleWidth } from "@mariozechner/pi-tui";
import { interruptedLine, rowsTable } from "../src/cli/format.js";
import { rowNeed } from "../src/daemon/concierge/digest.js";
import { replyNote, replyStarts } from "../src/hub/finished-reply.js";
import { initialHubState } from "../src/hub/hub-state.js";
import { renderHub } from "../src/hub/hub-view.js";
import { isWaiting, rowLook, rowSays } from "../src/hub/row-look.js";
import { asksPerson, ENDED_LIFECYCLES, type JobRow } from "../src/protocol/rows.js";
import { jobRow, NOW } from "./helpers/job-row.js";

const plain = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, "");

/** A Claude Code row that asked a question when its process went down. */
const interrupted = (id: string, extra: Partial<JobRow> = {}) =>
  jobRow(id, {
    kind: "terminal",
    lifecycle: "interrupted",
    connected: false,
    pid: null,
    state: "blocked",
    waitingFor: "question",
    question: "Proceed?",
    summary: "asked to proceed",
    ...extra,
  });

test("an interrupted row says so and how it comes back; what it asked went with its process", () => {
  const row = interrupted("a");
  const look = rowLook(row);
  assert.equal(look.label, "interrupted");
  assert.equal(look.group, "interrupted");
  assert.equal(look.glyph, "↯");
  assert.equal(asksPerson(row), false, "it asks nothing any more");
  assert.equal(isWaiting(row), false);
  assert.equal(
    rowSays(row),
    "went down with roost or the machine · a reply or roost resume brings it back · last: asked to proceed",
  );
  // Its last report said failed: it is interrupted all the same, and says its task when it said nothing.
  const failed = interrupted("b", { state: "failed", summary: null, task: "fix the docs" });
  assert.equal(rowLook(failed).label, "interrupted");
  assert.match(rowSays(failed), /brings it back · last: fix the docs$/);
  assert.doesNotMatch(rowSays(interrupted("c", { summary: null })), /last:/);
});

test("a reply to an interrupted row starts it again, as to any ended one; a stopped one waits", () => {
  assert.ok(ENDED_LIFECYCLES.has("interrupted"));
  assert.ok(!ENDED_LIFECYCLES.has("stopped"));
  assert.equal(replyStarts(interrupted("a")), "resumes");
  assert.equal(replyNote(interrupted("a"), false), "resumes a");
  assert.equal(replyStarts(interrupted("s", { restart: "reruns" })), "reruns");
  assert.equal(replyStarts(jobRow("r", { lifecycle: "stopped" })), null);
});

test("roost ls: the state word, and under the table how to bring interrupted jobs back", () => {
  const rows = [jobRow("run"), interrupted("one"), interrupted("two")];
  const [header, , line] = rowsTable(rows, NOW).split("\n");
  assert.match(header!, /^ID +NAME +STATE /);
  assert.match(line!, /^one +one +interrupted +\S/);
  assert.equal(
    interruptedLine(rows),
    "2 jobs were interrupted (roost or the machine went down): roost resume --all brings each back, taking up its conversation; roost resume NAME… those named",
  );
  assert.match(interruptedLine([interrupted("one")])!, /^1 job was interrupted/);
  assert.equal(interruptedLine([jobRow("run"), jobRow("done", { lifecycle: "done" })]), null);
});

test("the hub: its longer state word takes room from its summary, and every line still fits", () => {
  const state = initialHubState();
  state.connection = "connected";
  state.rows = new Map(
    [jobRow("running"), interrupted("down", { order: 1 })].map((row) => [row.id, row] as const),
  );
  for (const width of [120, 80, 60, 40]) {
    const lines = renderHub(state, width, 12, NOW);
    for (const line of lines) assert.ok(visibleWidth(line) <= width, `fits in ${width}: ${plain(line)}`);
    const row = lines.map(plain).find((l) => l.includes("↯ down"));
    assert.ok(row, `the row at ${width}`);
    if (width >= 60) assert.match(row, /↯ down +interrupted went down with roost/);
  }
});

test("the concierge's digest: an interrupted row needs a look, and says a respawn brings it back", () => {
  assert.equal(
    rowNeed(interrupted("a"), NOW),
    "interrupted: its process went down with roost or the machine; a respawn brings it back, taking up its conversation",
  );
});
