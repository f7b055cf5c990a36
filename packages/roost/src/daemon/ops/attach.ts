/** The attach ops (`roost attach`, the hub): see protocol/attach.ts. */
import { RoostError } from "../../protocol/index.js";
import type { OpHandler } from "../ops/context.js";

export const attach: OpHandler<"attach"> = ({ jobs, attachments }, caller, args) => {
  const job = jobs.resolve(args.id);
  const { cols, rows } = args;
  if ((cols === undefined) !== (rows === undefined))
    throw new RoostError("bad_request", "cols and rows go together");
  return attachments.attach(caller, job, cols !== undefined && rows !== undefined ? { cols, rows } : null);
};

export const attachInput: OpHandler<"attach-input"> = async ({ attachments }, caller, args) => {
  await attachments.input(caller, args.id, args.data);
  return {};
};

export const attachResize: OpHandler<"attach-resize"> = async ({ attachments }, caller, args) => {
  await attachments.resize(caller, args.id, args.cols, args.rows);
  return {};
};

export const detach: OpHandler<"detach"> = ({ attachments }, caller, args) => ({
  detached: attachments.detach(caller, args.id),
});
