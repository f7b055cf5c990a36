import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type RunRecord, recordProblem } from "./run-record.js";
import { type SweepSummary, summaryTable } from "./sweep-summary.js";

export const RECORDS_FILE = "runs.jsonl";
export const SUMMARY_JSON_FILE = "summary.json";
export const SUMMARY_TEXT_FILE = "summary.txt";
const IDENTITY_FILE = "sweep.json";

/**
 * A sweep's folder: its identity, the records of finished runs (one JSON line each, appended as
 * they finish, so an interrupted sweep keeps what it did) and the summary written at the end.
 */
export class SweepDir {
  /** Names this sweep's jobs on a queue, so a restarted sweep finds the runs it had queued. */
  readonly sweepId: string;
  private readonly recordsPath: string;

  constructor(readonly path: string) {
    mkdirSync(path, { recursive: true });
    this.recordsPath = join(path, RECORDS_FILE);
    const identityPath = join(path, IDENTITY_FILE);
    if (existsSync(identityPath)) {
      const identity = JSON.parse(readFileSync(identityPath, "utf8")) as { sweep_id?: unknown };
      if (typeof identity.sweep_id !== "string" || !/^[0-9a-f]{16}$/.test(identity.sweep_id)) {
        throw new Error(`${identityPath} has no valid sweep_id; remove it to start the sweep afresh`);
      }
      this.sweepId = identity.sweep_id;
    } else {
      this.sweepId = randomBytes(8).toString("hex");
      writeFileSync(identityPath, `${JSON.stringify({ sweep_id: this.sweepId })}\n`);
    }
  }

  /**
   * The records already written, by key (the first of any key written twice). A last line cut
   * short by a kill is removed from the file, so appending continues on a clean line; a bad line
   * anywhere else is an error rather than something to silently drop.
   */
  readRecords(): Map<string, RunRecord> {
    const records = new Map<string, RunRecord>();
    if (!existsSync(this.recordsPath)) return records;
    const text = readFileSync(this.recordsPath, "utf8");
    const complete = text.lastIndexOf("\n") + 1;
    if (complete < text.length) truncateSync(this.recordsPath, Buffer.byteLength(text.slice(0, complete)));
    const lines = text.slice(0, complete).split("\n");
    lines.forEach((line, i) => {
      if (line === "") return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        throw new Error(`${this.recordsPath} line ${i + 1} is not JSON: ${(error as Error).message}`);
      }
      const problem = recordProblem(value);
      if (problem) throw new Error(`${this.recordsPath} line ${i + 1}: ${problem}`);
      const record = value as RunRecord;
      if (!records.has(record.key)) records.set(record.key, record);
    });
    return records;
  }

  /** Appends the records as lines, in one write. */
  appendRecords(records: readonly RunRecord[]): void {
    appendFileSync(this.recordsPath, records.map((record) => `${JSON.stringify(record)}\n`).join(""));
  }

  writeSummary(summary: SweepSummary): void {
    writeFileSync(join(this.path, SUMMARY_JSON_FILE), `${JSON.stringify(summary, null, 2)}\n`);
    writeFileSync(join(this.path, SUMMARY_TEXT_FILE), `${summaryTable(summary)}\n`);
  }
}
