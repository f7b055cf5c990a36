import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { Box, Text } from "@mariozechner/pi-tui";
import {
  AGENT_MESSAGE_TYPE,
  agentMessageTitle,
  type DeliverKind,
  envelopeBody,
} from "../protocol/agent-message.js";
import type { DeliverEvent } from "../protocol/events.js";

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
