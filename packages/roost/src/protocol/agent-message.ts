/**
 * An agent item as a pi session keeps it: pi's worker writes it as a custom message of this type
 * (its text the daemon's envelope), and the daemon reads it back from the session for a transcript.
 */

/** Kinds of agent item on a job's queue (a user reply has none): a peer's message, a child's report, a watch's notice, the concierge's digest. */
export const DELIVER_KINDS = ["message", "report", "notice", "digest"] as const;
export type DeliverKind = (typeof DELIVER_KINDS)[number];

/** The custom message type of an agent item in a pi session (a peer's message, a report, a notice). */
export const AGENT_MESSAGE_TYPE = "pi-roost-agent-message";

/** The text inside `<agent-message ...>` and `</agent-message>` (all of it when it is not framed). */
export function envelopeBody(text: string): string {
  const open = text.startsWith("<agent-message") ? text.indexOf("\n") : -1;
  const close = text.lastIndexOf("\n</agent-message>");
  if (open === -1 || close < open) return text;
  return text.slice(open + 1, close);
}

/** An agent item's title, as pi's session and a transcript show it: `✉ report from Checkout refactor (child)`. */
export function agentMessageTitle(item: { kind: string; from: string; relation: string }): string {
  return `✉ ${item.kind} from ${item.from} (${item.relation})`;
}
