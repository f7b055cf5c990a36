import type { DaemonClient } from "../../client/daemon-client.js";
import { clockTime } from "../../hub/pane-view.js";
import {
  entryBody,
  entryHeading,
  type TranscriptEntry,
  type TranscriptProgram,
  type TranscriptResult,
  terminalSafe,
  terminalSafeJson,
} from "../../protocol/index.js";
import type { Command } from "../command.js";
import { followPolling } from "../follow.js";
import { hangingLines } from "../format.js";

/** The heading's column: a longer one (an agent message's title) has a line of its own. */
const HEADING_COLUMNS = 12;

/** One entry: its time, who said it, and its text under it, made safe for the terminal. */
export function transcriptLine(entry: TranscriptEntry, program: TranscriptProgram): string {
  const heading = terminalSafe(entryHeading(entry, program));
  const time = clockTime(entry.at);
  if ([...heading].length <= HEADING_COLUMNS)
    return hangingLines(`${time}  ${heading.padEnd(HEADING_COLUMNS)}  `, entryBody(entry));
  const under = " ".repeat(time.length + 2 + HEADING_COLUMNS + 2);
  return `${time}  ${heading}\n${hangingLines(under, entryBody(entry))}`;
}

export const transcript: Command = {
  name: "transcript",
  usage: "transcript ID|NAME [--follow] [--json]",
  summary:
    "A Claude Code, Codex or pi job's conversation from its own record: your messages, its answers, its tool calls and their results, and other sessions' messages, in order. --follow prints new entries as they come; --json prints one JSON object per entry.",
  positionals: [1, 1],
  options: { follow: { type: "boolean", short: "f" } },
  run: async ({ positionals, values, json, home, client }) => {
    const id = positionals[0]!;
    let cursor = "";
    let shown = 0;
    const show = (page: TranscriptResult) => {
      for (const entry of page.entries)
        process.stdout.write(`${json ? terminalSafeJson(entry) : transcriptLine(entry, page.program)}\n`);
      shown += page.entries.length;
    };
    // Every page there is now: a long record comes in several.
    const drain = async (c: DaemonClient) => {
      for (;;) {
        const page: TranscriptResult = await c.call("transcript", { id, after: cursor });
        if (page.restarted && cursor !== "")
          process.stderr.write("roost transcript: the job's conversation is another now; from its start:\n");
        show(page);
        cursor = page.cursor;
        if (!page.more) return;
      }
    };
    const c = await client();
    await drain(c);
    if (!values.follow) {
      if (shown === 0 && !json) process.stdout.write("nothing in its transcript yet\n");
      return 0;
    }
    return followPolling("transcript", home, c, drain);
  },
};
