import { foldName, RoostError } from "../../protocol/index.js";
import type { Job } from "../job.js";
import { optionalBoolean } from "./args.js";
import type { OpHandler } from "./context.js";

export const list: OpHandler = ({ state }) => ({ rows: state.rows() });

/** The rows now, then a `row` event whenever one changes (and `row-removed`). */
export const subscribe: OpHandler = ({ state }, caller) => {
  caller.subscribed = true;
  return { rows: state.rows() };
};

export const pin: OpHandler = ({ state }, _caller, args) => {
  const job = state.resolve(args.id);
  job.pinned = optionalBoolean(args, "pinned") ?? true;
  state.save(job);
  return { id: job.id };
};

/** Changes the row's name only (an agent's own name for itself is its business). */
export const rename: OpHandler = ({ state }, _caller, args) => {
  const job = state.resolve(args.id);
  const raw = args.name;
  const name = typeof raw === "string" ? foldName(raw) : "";
  if (name === "") throw new RoostError("bad_request", "name must be a non-empty string");
  job.name = name;
  state.save(job);
  return { id: job.id, name };
};

/** Puts the named jobs first, in that order; the others follow as they were. */
export const reorder: OpHandler = ({ state }, _caller, args) => {
  const ids = args.ids;
  if (!Array.isArray(ids)) throw new RoostError("bad_request", "ids must be an array of job ids or names");
  const first = ids.map((id) => state.resolve(id));
  const chosen = new Set(first);
  const rest = [...state.jobs.values()].filter((j) => !chosen.has(j)).sort((a, b) => a.order - b.order);
  [...first, ...rest].forEach((job: Job, order) => {
    if (job.order === order) return;
    job.order = order;
    state.save(job);
  });
  return {};
};
