import type { JobRow } from "../../src/protocol/rows.js";

/** The fixed "now" of the hub's view tests. */
export const NOW = Date.parse("2026-01-01T12:00:00Z");

/** A job row for the hub's view tests: a running protocol agent, changed 5 s before NOW. */
export function jobRow(id: string, fields: Partial<JobRow> & { parent?: string } = {}): JobRow {
  return {
    id,
    name: id,
    profile: "agent",
    kind: "protocol",
    cwd: "/srv/a",
    task: null,
    state: "working",
    status: "busy",
    waitingFor: null,
    summary: `summary of ${id}`,
    question: null,
    choices: [],
    tool: null,
    error: null,
    model: null,
    thinking: null,
    context: null,
    lifecycle: "running",
    restart: "resumes",
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
    createdAt: new Date(NOW - 60_000).toISOString(),
    updatedAt: new Date(NOW - 5_000).toISOString(),
    ...fields,
  };
}
