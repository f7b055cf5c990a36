/** Which reader reads a job's screen: the one its profile names, else the one its program's name says. */
import { basename } from "node:path";
import { isReaderName, type ReaderName } from "../../home/reader-names.js";
import type { AgentReader } from "./agent-reader.js";
import { claudeCode } from "./readers/claude-code.js";
import { codex } from "./readers/codex.js";
import { generic } from "./readers/generic.js";
import { piTui } from "./readers/pi-tui.js";

export const READERS: Record<ReaderName, AgentReader> = {
  claude: claudeCode,
  codex,
  pi: piTui,
  generic,
};

/** The reader a profile names, else the one its program's name says, else the generic one. */
export function readerFor(name: string | undefined, command: readonly string[]): AgentReader {
  if (name !== undefined) return isReaderName(name) ? READERS[name] : generic;
  // `/bin/sh -c "claude ..."` runs claude too: the first word of the shell text counts.
  const program =
    command[0] === "/bin/sh" && command[1] === "-c" ? (command[2] ?? "").split(/\s+/)[0]! : command[0];
  const named = basename(program ?? "");
  return isReaderName(named) ? READERS[named] : generic;
}
