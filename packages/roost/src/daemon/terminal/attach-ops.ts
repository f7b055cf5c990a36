/** The attach ops (`roost attach`, the hub): see protocol/attach.ts. */
import { LIMITS, RoostError } from "../../protocol/index.js";
import { requiredString } from "../ops/args.js";
import type { OpHandler } from "../ops/context.js";
import { attachmentsOf } from "./attachments.js";

const MAX_COLS = 1000;
const MAX_ROWS = 500;

function size(args: Record<string, unknown>, required: boolean): { cols: number; rows: number } | null {
  const { cols, rows } = args;
  if (!required && cols === undefined && rows === undefined) return null;
  const ok = (v: unknown, max: number) => typeof v === "number" && Number.isInteger(v) && v >= 2 && v <= max;
  if (!ok(cols, MAX_COLS) || !ok(rows, MAX_ROWS))
    throw new RoostError("bad_request", `cols must be 2 to ${MAX_COLS} and rows 2 to ${MAX_ROWS}`);
  return { cols: cols as number, rows: rows as number };
}

export const attach: OpHandler = ({ state }, caller, args) => {
  const job = state.resolve(args.id);
  return attachmentsOf(state).attach(caller, job, size(args, false));
};

export const attachInput: OpHandler = async ({ state }, caller, args) => {
  const id = requiredString(args, "id");
  const data = args.data;
  if (typeof data !== "string" || data === "")
    throw new RoostError("bad_request", "data must be a non-empty string");
  if (data.length > LIMITS.replyText)
    throw new RoostError("bad_request", `data is longer than ${LIMITS.replyText} characters`);
  await attachmentsOf(state).input(caller, id, data);
  return {};
};

export const attachResize: OpHandler = async ({ state }, caller, args) => {
  const id = requiredString(args, "id");
  const { cols, rows } = size(args, true)!;
  await attachmentsOf(state).resize(caller, id, cols, rows);
  return {};
};

export const detach: OpHandler = ({ state }, caller, args) => {
  const id = requiredString(args, "id");
  return { detached: attachmentsOf(state).detach(caller, id) };
};
