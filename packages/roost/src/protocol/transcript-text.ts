/** A transcript's entries in words, as `roost transcript` and the hub's transcript view say them. */
import { agentMessageTitle } from "./agent-message.js";
import type { TranscriptEntry, TranscriptProgram } from "./transcript.js";

/**
 * Who said it: `you`, the agent (`claude`, `codex`, `pi`), a call (`→ Bash`), a result (`← Bash`,
 * `← result` when the record does not name the tool), `✗` when it failed, and an agent message's
 * title (`✉ report from kid (child)`). The names in it are the record's: untrusted.
 */
export function entryHeading(entry: TranscriptEntry, program: TranscriptProgram): string {
  const failed = entry.error ? " ✗" : "";
  switch (entry.kind) {
    case "user":
      return "you";
    case "assistant":
      return `${program}${failed}`;
    case "tool-call":
      return `→ ${entry.tool ?? "tool"}`;
    case "tool-result":
      return `← ${entry.tool ?? "result"}${failed}`;
    case "agent-message":
      return agentMessageTitle({
        kind: entry.delivery ?? "message",
        from: entry.from ?? "an agent",
        relation: entry.relation ?? "external",
      });
  }
}

/** The entry's text, and what was cut of it. Untrusted: made safe where it is shown. */
export function entryBody(entry: TranscriptEntry): string {
  if (entry.cut === undefined) return entry.text;
  return `${entry.text}\n… ${entry.cut - entry.text.length} more characters not shown (${entry.cut} in all)`;
}
