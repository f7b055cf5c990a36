/**
 * Claude Code's record as a transcript. A `user` line's `message.content` is the person's text (a
 * string, or text blocks) or the results of tool calls (`tool_result` blocks, `tool_use_id` the
 * call's); an `assistant` line's is the API message's blocks: `text`, `tool_use` (`id`, `name`,
 * `input`), and others (thinking) left out. Lines Claude Code marks `isMeta` (what it adds itself)
 * and a subagent's (`isSidechain`) are not the conversation's; every other line type is passed over.
 */
import type { TranscriptEntry } from "../../protocol/index.js";
import { isObject } from "../conversations/session-record.js";
import { contentText, inputText, timeOf, transcriptEntry } from "./transcript-entry.js";

export function claudeCodeEntries(line: Record<string, unknown>): TranscriptEntry[] {
  if (line.type !== "user" && line.type !== "assistant") return [];
  if (line.isMeta === true || line.isSidechain === true || !isObject(line.message)) return [];
  const kind = line.type;
  const at = timeOf(line.timestamp);
  const content = line.message.content;
  if (typeof content === "string") return [transcriptEntry(kind, content, at)];
  if (!Array.isArray(content)) return [];
  const entries: TranscriptEntry[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string")
      entries.push(transcriptEntry(kind, block.text, at));
    else if (block.type === "tool_use")
      entries.push(
        transcriptEntry("tool-call", inputText(block.input), at, { tool: block.name, callId: block.id }),
      );
    else if (block.type === "tool_result")
      entries.push(
        transcriptEntry("tool-result", contentText(block.content), at, {
          callId: block.tool_use_id,
          error: block.is_error === true,
        }),
      );
  }
  return entries;
}
