import assert from "node:assert/strict";
import { test } from "node:test";
import { visibleWidth } from "@mariozechner/pi-tui";
import type { RowEntry } from "../src/hub/row-list.js";
import { agentMeta, rowLine } from "../src/hub/row-view.js";
import type { JobRow } from "../src/protocol/rows.js";

const NOW = Date.parse("2026-01-01T12:00:00Z");
const plain = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, "");

function piRow(fields: Partial<JobRow>): JobRow {
  return {
    id: "a1",
    name: "pi",
    profile: "pi",
    kind: "protocol",
    cwd: "/srv/a",
    task: "fix the docs",
    state: "working",
    status: "busy",
    waitingFor: null,
    summary: "reading",
    question: null,
    choices: [],
    tool: null,
    error: null,
    model: null,
    thinking: null,
    context: null,
    lifecycle: "running",
    reported: true,
    connected: true,
    pid: 1,
    exitCode: null,
    pinned: false,
    order: 0,
    pending: 0,
    capabilities: [],
    agent: null,
    restarts: 0,
    parentSession: null,
    rootSession: null,
    createdAt: new Date(NOW - 60_000).toISOString(),
    updatedAt: new Date(NOW - 60_000).toISOString(),
    ...fields,
  };
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
