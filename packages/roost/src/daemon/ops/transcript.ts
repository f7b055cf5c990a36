import { LIMITS } from "../../protocol/index.js";
import type { OpHandler } from "./context.js";

/** `transcript {id, after?, limit?}`: a page of the job's conversation, for `roost transcript` and the hub's view. */
export const transcript: OpHandler<"transcript"> = ({ jobs, transcripts }, _caller, args) =>
  transcripts.page(jobs.resolve(args.id), args.after ?? null, args.limit ?? LIMITS.transcriptEntries);
