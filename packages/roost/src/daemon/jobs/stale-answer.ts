/**
 * An answer to a question the agent no longer asks: a protocol agent that asks something else by
 * the time a reply comes (the warren player's next observation) would take it as the answer to the
 * new question, which the person never saw. Such a reply is held, as a terminal agent's is.
 */
import type { ReplyMode } from "../../protocol/index.js";
import type { Job } from "./job.js";
import { toRow } from "./job-row.js";

/**
 * Whether a reply given as the answer to `question` (as the person saw it) would now answer
 * another: the row asks something else, or nothing. A reply given to no question, or a steer
 * (guidance during a run, never an answer), goes as it is.
 */
export function answersAnotherQuestion(
  job: Job,
  question: string | null | undefined,
  mode: ReplyMode | null,
): boolean {
  if (question === undefined || question === null || mode === "steer") return false;
  return (toRow(job).question ?? null) !== question;
}
