import type { RelatedJob } from "../../protocol/index.js";
import type { Job } from "../jobs/job.js";
import { toRow } from "../jobs/job-row.js";
import type { OpHandler } from "./context.js";

/** The feed's events about the job that `describe` gives. */
const DESCRIBE_EVENTS = 50;

function related(job: Job): RelatedJob {
  return { id: job.id, name: job.name, lifecycle: job.lifecycle };
}

/** Output lines `describe` gives unless asked for more or fewer. */
const DEFAULT_LINES = 20;

/** `describe {id, lines?}`: one job in full, for the hub's detail view and `roost describe`. */
export const describe: OpHandler<"describe"> = async ({ jobs: table, feed }, _caller, args) => {
  const job = table.resolve(args.id);
  const count = args.lines ?? DEFAULT_LINES;
  const jobs = table.all();
  const parent = job.parentSession ? table.get(job.parentSession) : undefined;
  return {
    row: toRow(job),
    command: job.command,
    lastLines: await table.outputLines(job, count),
    parent: parent ? related(parent) : null,
    children: jobs.filter((j) => j.parentSession === job.id).map(related),
    sameName: jobs.filter((j) => j !== job && j.name === job.name).map(related),
    events: feed.read({ jobId: job.id, limit: DESCRIBE_EVENTS }).events,
  };
};
