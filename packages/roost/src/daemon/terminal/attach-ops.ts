/** The attach ops (`roost attach`, the hub): see protocol/attach.ts. */
import { RoostError } from "../../protocol/index.js";
import type { OpHandler } from "../ops/context.js";
import { attachmentsOf } from "./attachments.js";

export const attach: OpHandler<"attach"> = ({ state }, caller, args) => {
  const job = state.resolve(args.id);
  const { cols, rows } = args;
  if ((cols === undefined) !== (rows === undefined))
    throw new RoostError("bad_request", "cols and rows go together");
  return attachmentsOf(state).attach(
    caller,
    job,
    cols !== undefined && rows !== undefined ? { cols, rows } : null,
  );
};

export const attachInput: OpHandler<"attach-input"> = async ({ state }, caller, args) => {
  await attachmentsOf(state).input(caller, args.id, args.data);
  return {};
};

export const attachResize: OpHandler<"attach-resize"> = async ({ state }, caller, args) => {
  await attachmentsOf(state).resize(caller, args.id, args.cols, args.rows);
  return {};
};

export const detach: OpHandler<"detach"> = ({ state }, caller, args) => ({
  detached: attachmentsOf(state).detach(caller, args.id),
});
