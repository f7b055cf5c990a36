import { CONCIERGE_NAME, foldName, RoostError } from "../../protocol/index.js";

/** `concierge` is the concierge's: a session cannot take it (by dispatch, rename or its report). */
export function refuseReservedName(name: string, field = "name"): void {
  if (foldName(name) === CONCIERGE_NAME)
    throw new RoostError("bad_request", `${field} "${CONCIERGE_NAME}" is the concierge's; choose another`);
}
