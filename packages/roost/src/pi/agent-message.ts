import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { Box, Text } from "@mariozechner/pi-tui";
import type { DeliverEvent, DeliverKind } from "../protocol/events.js";

/** The custom message type of an agent item in a pi session (a peer's message, a report, a notice). */
export const AGENT_MESSAGE_TYPE = "pi-roost-agent-message";

/** What an agent item keeps in the session: its seq finds a resend after a restart. */
export interface AgentMessageDetails {
  seq: number;
  from: string;
  relation: string;
  kind: DeliverKind;
}

/** The item's details (the daemon has framed its text in the envelope already). */
export function agentMessageDetails(item: DeliverEvent): AgentMessageDetails {
  return {
    seq: item.seq,
    from: item.from ?? "an agent",
    relation: item.relation ?? "external",
    kind: item.kind ?? "message",
  };
}

/** The framed block's title: `✉ report from Checkout refactor (child)`. */
export function agentMessageTitle(details: AgentMessageDetails): string {
  return `✉ ${details.kind} from ${details.from} (${details.relation})`;
}

/** The text inside `<agent-message ...>` and `</agent-message>` (all of it when it is not framed). */
export function envelopeBody(text: string): string {
  const open = text.startsWith("<agent-message") ? text.indexOf("\n") : -1;
  const close = text.lastIndexOf("\n</agent-message>");
  if (open === -1 || close < open) return text;
  return text.slice(open + 1, close);
}

/** Shows agent items as a framed block, apart from the user's messages. */
export function registerAgentMessageRenderer(pi: ExtensionAPI): void {
  pi.registerMessageRenderer<AgentMessageDetails>(AGENT_MESSAGE_TYPE, (message, { expanded }, theme) => {
    const details = message.details;
    const box = new Box(1, 1, (text) => theme.bg("customMessageBg", text));
    const title = details ? agentMessageTitle(details) : "✉ from an agent";
    box.addChild(new Text(theme.fg("accent", theme.bold(title)), 0, 0));
    const body = envelopeBody(typeof message.content === "string" ? message.content : "");
    const lines = body.split("\n");
    const shown = expanded || lines.length <= 8 ? body : [...lines.slice(0, 8), "…"].join("\n");
    box.addChild(new Text(shown, 0, 0));
    return box;
  });
}
