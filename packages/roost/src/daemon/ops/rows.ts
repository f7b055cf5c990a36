import { foldName, RoostError, refuseReservedName } from "../../protocol/index.js";

import type { Job } from "../jobs/job.js";
import type { OpContext, OpHandler } from "./context.js";

/** How long a listing waits for the terminals' first reading. */
const FIRST_READ_WAIT_MS = 5000;

/**
 * Just after the daemon starts, the rows wait (a moment) for the first reading of the terminals: a
 * terminal agent idle at its prompt does not read "working" until its screen is read.
 */
async function rowsRead(ctx: OpContext) {
  let timer: NodeJS.Timeout | undefined;
  // Not for long: a process host that cannot be reached does not keep the rows from being listed.
  const enough = new Promise<void>((resolve) => (timer = setTimeout(resolve, FIRST_READ_WAIT_MS)));
  await Promise.race([ctx.supervisor.firstRead, enough]);
  clearTimeout(timer);
  return ctx.jobs.rows();
}

export const list: OpHandler<"list"> = async (ctx) => ({ rows: await rowsRead(ctx) });

/** The rows now, then a `row` event whenever one changes (and `row-removed`). */
export const subscribe: OpHandler<"subscribe"> = async (ctx, caller) => {
  const rows = await rowsRead(ctx);
  caller.subscribed = true;
  return { rows };
};

/** The user's changes to a row in the events feed. */
function feedRowChange(ctx: OpContext, job: Job, why: string, text: string): void {
  ctx.feed.add({ kind: "job", why, text, who: "user", whoId: null, jobs: [job.id] });
}

export const pin: OpHandler<"pin"> = (ctx, _caller, args) => {
  const { jobs } = ctx;
  const job = jobs.resolve(args.id);
  const pinned = args.pinned ?? true;
  const changed = job.pinned !== pinned;
  job.pinned = pinned;
  jobs.save(job);
  if (changed)
    feedRowChange(ctx, job, pinned ? "pin" : "unpin", `${job.name}: ${pinned ? "pinned" : "unpinned"}`);
  return { id: job.id };
};

/** Changes the row's name only (an agent's own name for itself is its business). */
export const rename: OpHandler<"rename"> = (ctx, _caller, args) => {
  const { jobs } = ctx;
  const job = jobs.resolve(args.id);
  const name = foldName(args.name);
  if (name === "") throw new RoostError("bad_request", "name must be a non-empty string");
  if (job.role === "concierge") throw new RoostError("bad_request", "the concierge keeps its name");
  refuseReservedName(name);
  const old = job.name;
  job.name = name;
  jobs.save(job);
  if (old !== name) feedRowChange(ctx, job, "rename", `${old}: renamed to ${name}`);
  return { id: job.id, name };
};

/** Puts the named jobs first, in that order; the others follow as they were. */
export const reorder: OpHandler<"reorder"> = ({ jobs }, _caller, args) => {
  const first = args.ids.map((id) => jobs.resolve(id));
  const chosen = new Set(first);
  const rest = jobs
    .all()
    .filter((j) => !chosen.has(j))
    .sort((a, b) => a.order - b.order);
  [...first, ...rest].forEach((job: Job, order) => {
    if (job.order === order) return;
    job.order = order;
    jobs.save(job);
  });
  return {};
};
