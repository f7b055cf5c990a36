import type { JobRow } from "../protocol/index.js";

/** A row on one line: id, name, where it is, and what it says. */
export function rowLine(row: JobRow): string {
  const where =
    row.lifecycle === "running" ? `${row.state}${row.status ? `/${row.status}` : ""}` : row.lifecycle;
  const pending = row.pending > 0 ? ` [${row.pending} waiting]` : "";
  const pin = row.pinned ? "*" : " ";
  const text = row.lifecycle === "failed" && row.error ? row.error : (row.question ?? row.summary ?? "");
  return `${pin}${row.id}  ${row.name}  ${where}${pending}  ${text}`.trimEnd();
}
