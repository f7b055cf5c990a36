import assert from "node:assert/strict";
import { test } from "node:test";
import { RememberedList } from "../src/hub/remembered-list.js";
import { type Entry, listEntries } from "../src/hub/row-list.js";
import type { JobRow } from "../src/protocol/rows.js";
import { jobRow } from "./helpers/job-row.js";

/** The list as a fresh layout gives it: what the remembered list must always equal. */
function laidOut(
  rows: Map<string, JobRow>,
  grouping: "dir" | "state",
  filter = "",
  held = new Map(),
): Entry[] {
  return listEntries(rows, grouping, filter, held);
}

function fleet(n: number): Map<string, JobRow> {
  return new Map(
    Array.from({ length: n }, (_, i) => {
      const row = jobRow(`r${i}`, { order: i, cwd: `/srv/${i % 3}`, parentSession: i === 4 ? "r1" : null });
      return [row.id, row];
    }),
  );
}

test("a row that changes in place is shown changed, without laying the list out again", () => {
  const rows = fleet(6);
  const list = new RememberedList();
  const first = list.entries(rows, "dir", "");
  assert.equal(list.entries(rows, "dir", ""), first, "nothing changed: the same entries");
  rows.set("r2", { ...rows.get("r2")!, summary: "a new step" });
  const second = list.entries(rows, "dir", "");
  assert.notEqual(second, first);
  assert.deepEqual(second, laidOut(rows, "dir"));
  // The first frame's entries are left as they were (a caller may still hold them).
  assert.deepEqual(first, laidOut(fleet(6), "dir"));
});

test("a row that moves, or changes group, name, tree or filter match, lays the list out again", () => {
  const changes: [string, Partial<JobRow> & { parentSession?: string | null }][] = [
    ["order", { order: -1 }],
    ["pin", { pinned: true }],
    ["folder", { cwd: "/srv/elsewhere" }],
    ["name", { name: "renamed" }],
    ["parent", { parentSession: "r0" }],
    ["state group", { state: "blocked", waitingFor: "question", question: "Go?" }],
  ];
  for (const [what, fields] of changes)
    for (const grouping of ["dir", "state"] as const) {
      const rows = fleet(6);
      const list = new RememberedList();
      list.entries(rows, grouping, "");
      rows.set("r3", { ...rows.get("r3")!, ...fields });
      assert.deepEqual(list.entries(rows, grouping, ""), laidOut(rows, grouping), `${what}, by ${grouping}`);
    }
  const rows = fleet(6);
  const list = new RememberedList();
  list.entries(rows, "dir", "summary of r3");
  rows.set("r3", { ...rows.get("r3")!, summary: "something else" });
  assert.deepEqual(list.entries(rows, "dir", "summary of r3"), laidOut(rows, "dir", "summary of r3"));
  assert.equal(
    list.entries(rows, "dir", "summary of r3").filter((e) => e.kind === "row").length,
    0,
    "the row left the filter",
  );
});

test("added and removed rows, a new filter, grouping or held group are laid out anew", () => {
  const rows = fleet(6);
  const list = new RememberedList();
  list.entries(rows, "dir", "");
  rows.delete("r5");
  assert.deepEqual(list.entries(rows, "dir", ""), laidOut(rows, "dir"));
  rows.set("r9", jobRow("r9", { order: -5 }));
  assert.deepEqual(list.entries(rows, "dir", ""), laidOut(rows, "dir"));
  // One removed and one added: the same count, other rows.
  rows.delete("r0");
  rows.set("r10", jobRow("r10", { order: 2 }));
  assert.deepEqual(list.entries(rows, "dir", ""), laidOut(rows, "dir"));
  assert.deepEqual(list.entries(rows, "state", ""), laidOut(rows, "state"));
  assert.deepEqual(list.entries(rows, "state", "r1"), laidOut(rows, "state", "r1"));
  const held = new Map([["r2", "waiting"]]);
  assert.deepEqual(list.entries(rows, "state", "", held), laidOut(rows, "state", "", held));
  held.set("r3", "waiting");
  assert.deepEqual(list.entries(rows, "state", "", held), laidOut(rows, "state", "", held));
});
