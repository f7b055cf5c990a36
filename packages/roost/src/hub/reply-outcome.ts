import type { ReplyResult } from "../protocol/ops.js";

/**
 * What became of a reply, in the person's words. `sendHeld` names how the person sends a held
 * reply where they are (a key in the hub, a button on the web page).
 */
export function replyOutcome(
  name: string,
  result: ReplyResult,
  steer: boolean,
  sendHeld = "Enter on the row",
): string {
  const started =
    !("started" in result) || result.started === undefined
      ? ""
      : result.started === "resumes"
        ? `${name} resumes. `
        : `${name} started again. `;
  return started + outcomeOfReply(name, result, steer, sendHeld);
}

function outcomeOfReply(name: string, result: ReplyResult, steer: boolean, sendHeld: string): string {
  if ("ended" in result)
    return `It ended (${result.ended}) before it asked anything: the reply was not typed.`;
  if ("stopped" in result) return `${name} stopped (/stop is not delivered).`;
  if ("dropped" in result) return `The reply held for ${name} was dropped.`;
  if ("held" in result && result.asks === "other")
    return `${name} asks something else now: the reply is held, not given as its answer. ${sendHeld} sends it, or edit it.`;
  if ("held" in result)
    return `${name} asks nothing now: the reply is held, not typed. Send it when it asks (${sendHeld}).`;
  if ("duplicate" in result)
    return `Reply to ${name} was saved already (duplicate)${result.seq ? `: #${result.seq}` : ""}.`;
  return `Reply #${result.seq} saved for ${name}${steer ? " (steer)" : ""}.`;
}
