// The hub page's sample is a frame the hub draws: the rows it shows, rendered at 120×35 by the
// hub's own view, must be the page's block line for line (the test prints the fresh frame).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { initialHubState } from "../src/hub/hub-state.js";
import { renderHub } from "../src/hub/hub-view.js";
import type { JobRow } from "../src/protocol/rows.js";
import { jobRow, NOW } from "./helpers/job-row.js";

const HUB_PAGE = fileURLToPath(new URL("../docs/hub.md", import.meta.url));
const HEADING = "## What it shows";
const fleet = join(homedir(), "src", "fleet");
const roost = join(fleet, "packages", "roost");
const ago = (ms: number) => new Date(NOW - ms).toISOString();

/** The hub page's first code block after its heading. */
function pageSample(): string[] {
  const text = readFileSync(HUB_PAGE, "utf8");
  const after = text.slice(text.indexOf(HEADING));
  const block = /```\n([\s\S]*?)\n```/.exec(after);
  assert.ok(block, `a code block under ${HEADING}`);
  return block[1]!.split("\n");
}

const asking = (id: string, fields: Partial<JobRow>): JobRow =>
  jobRow(id, {
    state: "blocked",
    status: "waiting",
    waitingFor: "question",
    updatedAt: ago(1000),
    ...fields,
  });

/** The demo fleet as the sample shows it. */
const ROWS: JobRow[] = [
  asking("count-ts", {
    cwd: roost,
    order: 0,
    summary: "3449 words in 15 files of src/protocol (most: src/protocol/ops.ts)",
    question: "Name a file or folder to count, anything else for all of it, or done.",
  }),
  asking("planner", {
    cwd: roost,
    order: 1,
    summary: "waiting for a plan",
    question: "Which plan should I follow?",
    choices: ["fast", "careful", "skip"],
  }),
  asking("count-py", {
    cwd: join(roost, "sdk"),
    order: 2,
    summary: "2731 words in 1 files of python (most: python/roost_agent.py)",
    question: "Name a file or folder to count, anything else for all of it, or done.",
  }),
  asking("deploy", {
    kind: "terminal",
    reported: false,
    restart: "reruns",
    cwd: fleet,
    order: 3,
    summary: "Deploy to staging.",
    question: "Proceed? [y/N]",
    choices: ["y", "n"],
    updatedAt: ago(5000),
  }),
  jobRow("3f2a0000", {
    name: "nightly",
    kind: "terminal",
    reported: false,
    restart: "reruns",
    cwd: fleet,
    order: 4,
    lifecycle: "failed",
    state: "failed",
    status: "idle",
    summary: "execvp(3) failed: No such file or directory",
    error: "crashed 3 times in a row",
    exitCode: 127,
    updatedAt: ago(120_000),
  }),
  jobRow("9c010000", {
    name: "nightly",
    kind: "terminal",
    reported: false,
    restart: "reruns",
    cwd: fleet,
    order: 5,
    lifecycle: "done",
    state: "done",
    status: "idle",
    summary: "built 412 files",
    exitCode: 0,
    updatedAt: ago(3_600_000),
  }),
];

test("the hub page's sample is the hub's own frame of the demo fleet at 120 columns", () => {
  const sample = pageSample();
  const state = initialHubState();
  state.connection = "connected";
  state.rows = new Map(ROWS.map((r) => [r.id, r]));
  state.notice = { text: "Reply #3 saved for count-ts.", tone: "ok" };
  // At 120×35, the blank rows between the list and the bottom lines left out.
  const frame = renderHub(state, 120, 35, NOW)
    .map((line) => line.replace(/\x1b\[[0-9;]*m/g, "").trimEnd())
    .filter((line) => line !== "");
  assert.deepEqual(
    sample.map((line) => line.trimEnd()),
    frame,
    `the hub page's sample is not what the hub draws; the hub draws:\n${frame.join("\n")}`,
  );
});
