import assert from "node:assert/strict";
import { test } from "node:test";
import { visibleWidth } from "@mariozechner/pi-tui";
import type { RowEntry } from "../src/hub/row-list.js";
import { agentMeta, rowLine } from "../src/hub/row-view.js";
import type { JobRow } from "../src/protocol/rows.js";
import { jobRow, NOW } from "./helpers/job-row.js";

const plain = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, "");

/** A pi job's row: its task, what it says, and no tool, model or context unless given. */
function piRow(fields: Partial<JobRow>): JobRow {
  return jobRow("a1", {
    name: "pi",
    profile: "pi",
    task: "fix the docs",
    summary: "reading",
    parentSession: null,
    rootSession: null,
    updatedAt: new Date(NOW - 60_000).toISOString(),
    ...fields,
  });
}

test("a pi job's row shows its running tool, its model and how full its context is", () => {
  const row = piRow({
    tool: "bash",
    model: "fake/fake-model",
    context: { tokens: 51200, window: 128000, percent: 40.2 },
  });
  assert.equal(agentMeta(row), "fake-model 40% ");
  assert.equal(agentMeta(piRow({})), "");
  const entry: RowEntry = { kind: "row", row, depth: 0, parentName: null, sharedName: false };
  const line = rowLine(entry, 100, 60_000, false, "dir");
  assert.equal(visibleWidth(line), 100);
  assert.match(plain(line), /\[bash\] reading .*fake-model 40% +1m$/);
});
