/**
 * Codex's rollout as a transcript: its `response_item` lines. A `message` of role `user` (parts
 * `input_text`) or `assistant` (`output_text`); a user message Codex wrote itself (its
 * environment context: every part's provenance not the user's) and `developer` ones are left out.
 * A `function_call` (`name`, `arguments` as a JSON string, `call_id`) or `custom_tool_call`
 * (`input`), and their `*_output` (`call_id`, `output`: a string, or `{content, success}`).
 * Other items (reasoning, web searches) and every other line type are passed over.
 */
import type { TranscriptEntry } from "../../protocol/index.js";
import { isObject } from "../conversations/session-record.js";
import { contentText, inputText, timeOf, transcriptEntry } from "./transcript-entry.js";

/** Whether Codex says every part of the message came from it, not the person. */
function writtenByCodex(item: Record<string, unknown>): boolean {
  const meta = item.internal_chat_message_metadata_passthrough;
  const parts = isObject(meta) && Array.isArray(meta.content_item_metadata) ? meta.content_item_metadata : [];
  return (
    parts.length > 0 &&
    parts.every((part) => isObject(part) && isObject(part.provenance) && part.provenance.type !== "user")
  );
}

/** A tool's name, with its namespace (an MCP server's) when the call names one. */
function toolName(item: Record<string, unknown>): unknown {
  return typeof item.namespace === "string" && typeof item.name === "string"
    ? `${item.namespace}.${item.name}`
    : item.name;
}

function outputEntry(item: Record<string, unknown>, at: string | null): TranscriptEntry {
  const output = item.output;
  if (isObject(output))
    return transcriptEntry("tool-result", contentText(output.content, ["text", "input_text"]), at, {
      callId: item.call_id,
      error: output.success === false,
    });
  return transcriptEntry("tool-result", typeof output === "string" ? output : "", at, {
    callId: item.call_id,
  });
}

export function codexEntries(line: Record<string, unknown>): TranscriptEntry[] {
  const item = line.payload;
  if (line.type !== "response_item" || !isObject(item)) return [];
  const at = timeOf(line.timestamp);
  switch (item.type) {
    case "message":
      if (item.role === "user" && !writtenByCodex(item))
        return [transcriptEntry("user", contentText(item.content, ["input_text"]), at)];
      if (item.role === "assistant")
        return [transcriptEntry("assistant", contentText(item.content, ["output_text"]), at)];
      return [];
    case "function_call":
    case "custom_tool_call":
      return [
        transcriptEntry("tool-call", inputText(item.arguments ?? item.input), at, {
          tool: toolName(item),
          callId: item.call_id,
        }),
      ];
    case "function_call_output":
    case "custom_tool_call_output":
      return [outputEntry(item, at)];
    default:
      return [];
  }
}
