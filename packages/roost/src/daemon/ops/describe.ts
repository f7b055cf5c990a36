import {
  DESCRIBE_MAX_LINES,
  type DescribeResult,
  type RelatedJob,
  RoostError,
} from "../../protocol/index.js";
import type { Job } from "../jobs/job.js";
import { toRow } from "../jobs/job-row.js";
import { lastOutputLines } from "../jobs/output-lines.js";
import type { OpHandler } from "./context.js";

/** The feed's events about the job that `describe` gives. */
const DESCRIBE_EVENTS = 50;

function related(job: Job): RelatedJob {
  return { id: job.id, name: job.name, lifecycle: job.lifecycle };
}

function lineCount(value: unknown): number {
  if (value === undefined || value === null) return 20;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1 || value > DESCRIBE_MAX_LINES)
    throw new RoostError("bad_request", `lines must be an integer from 1 to ${DESCRIBE_MAX_LINES}`);
  return value;
}

/** `describe {id, lines?}`: one job in full, for the hub's detail view and `roost describe`. */
export const describe: OpHandler = async ({ state, feed }, _caller, args): Promise<DescribeResult> => {
  const job = state.resolve(args.id);
  const count = lineCount(args.lines);
  const jobs = [...state.jobs.values()];
  const parent = job.parentSession ? state.jobs.get(job.parentSession) : undefined;
  return {
    row: toRow(job),
    command: job.command,
    lastLines: await lastOutputLines(state, job, count),
    parent: parent ? related(parent) : null,
    children: jobs.filter((j) => j.parentSession === job.id).map(related),
    sameName: jobs.filter((j) => j !== job && j.name === job.name).map(related),
    events: feed.read({ jobId: job.id, limit: DESCRIBE_EVENTS }).events,
  };
};
