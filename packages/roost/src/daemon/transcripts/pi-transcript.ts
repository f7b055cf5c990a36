/**
 * pi's session file as a transcript: its `message` entries (role `user`; `assistant` with `text`
 * and `toolCall` parts, thinking left out, or the model's `errorMessage`; `toolResult` with
 * `toolName`, `toolCallId`, `isError`; `bashExecution`, a command the person ran with `!`), and the
 * agent items roost's worker put in it (`custom_message` of its type, `details` saying from whom).
 * The header, model changes, other extensions' entries and every other type are passed over. The
 * entries come in the order written: a branch taken later (pi's `/tree`) follows what it left.
 */
import {
  AGENT_MESSAGE_TYPE,
  DELIVER_KINDS,
  type DeliverKind,
  envelopeBody,
  type TranscriptEntry,
} from "../../protocol/index.js";
import { isObject } from "../conversations/session-record.js";
import { contentText, inputText, timeOf, transcriptEntry } from "./transcript-entry.js";

function assistantEntries(message: Record<string, unknown>, at: string | null): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  for (const part of Array.isArray(message.content) ? message.content : []) {
    if (!isObject(part)) continue;
    if (part.type === "text" && typeof part.text === "string")
      entries.push(transcriptEntry("assistant", part.text, at));
    else if (part.type === "toolCall")
      entries.push(
        transcriptEntry("tool-call", inputText(part.arguments), at, { tool: part.name, callId: part.id }),
      );
  }
  if (entries.length === 0 && typeof message.errorMessage === "string")
    entries.push(transcriptEntry("assistant", message.errorMessage, at, { error: true }));
  return entries;
}

function messageEntries(message: Record<string, unknown>, at: string | null): TranscriptEntry[] {
  switch (message.role) {
    case "user":
      return [transcriptEntry("user", contentText(message.content), at)];
    case "assistant":
      return assistantEntries(message, at);
    case "toolResult":
      return [
        transcriptEntry("tool-result", contentText(message.content), at, {
          tool: message.toolName,
          callId: message.toolCallId,
          error: message.isError === true,
        }),
      ];
    case "bashExecution":
      return [
        transcriptEntry("tool-call", typeof message.command === "string" ? message.command : "", at, {
          tool: "bash",
        }),
        transcriptEntry("tool-result", typeof message.output === "string" ? message.output : "", at, {
          tool: "bash",
          error: typeof message.exitCode === "number" && message.exitCode !== 0,
        }),
      ];
    default:
      return [];
  }
}

function agentMessage(line: Record<string, unknown>, at: string | null): TranscriptEntry {
  const details = isObject(line.details) ? line.details : {};
  const delivery = (DELIVER_KINDS as readonly unknown[]).includes(details.kind)
    ? (details.kind as DeliverKind)
    : "message";
  return transcriptEntry("agent-message", envelopeBody(contentText(line.content)), at, {
    from: details.from,
    relation: details.relation,
    delivery,
  });
}

export function piEntries(line: Record<string, unknown>): TranscriptEntry[] {
  const at = timeOf(line.timestamp);
  if (line.type === "message" && isObject(line.message)) return messageEntries(line.message, at);
  if (line.type === "custom_message" && line.customType === AGENT_MESSAGE_TYPE)
    return [agentMessage(line, at)];
  return [];
}
