import type { JobRecord } from "../store/store.js";

/** What a new job's record is made from; everything else starts empty. */
export type NewRecordFields = Pick<
  JobRecord,
  "id" | "name" | "profile" | "kind" | "cwd" | "task" | "command" | "env" | "dir" | "lifecycle" | "order"
> &
  Partial<Pick<JobRecord, "nextSeq" | "worktree" | "exitCode">>;

/** A new job's record (a dispatch's, an adoption's), made at `now`. */
export function newRecord(fields: NewRecordFields, now: string): JobRecord {
  return {
    tokenHash: "",
    report: null,
    reportedName: null,
    screenSummary: null,
    pid: null,
    exitCode: null,
    pinned: false,
    capabilities: [],
    agent: null,
    restarts: 0,
    error: null,
    nextSeq: 1,
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
}
