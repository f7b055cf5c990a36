/** The row a job's screen gives it, kept beside the job (never stored: it is read again after a restart). */
import type { Report } from "../../protocol/index.js";
import type { Job } from "../jobs/job.js";

const reports = new WeakMap<Job, Report>();

export function setScreenReport(job: Job, report: Report): void {
  reports.set(job, report);
}

/** For `toRow`: the screen's row until the job reports, then null (its reports set the row). */
export function screenReportOf(job: Job): Report | null {
  return job.report === null ? (reports.get(job) ?? null) : null;
}
