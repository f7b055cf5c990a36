/**
 * The command that starts a program taking up a conversation: built in for Claude Code
 * (`--resume ID` in place of the `--session-id ID` it was first given) and Codex (its `resume ID`
 * subcommand), a profile's own `resume` arguments for any other program (after the program's name).
 */

function afterProgram(command: readonly string[], args: string[]): string[] {
  return [command[0]!, ...args, ...command.slice(1)];
}

export function claudeResumeArgv(command: readonly string[], sessionId: string): string[] {
  const at = command.indexOf("--session-id");
  if (at === -1) return afterProgram(command, ["--resume", sessionId]);
  return [...command.slice(0, at), "--resume", sessionId, ...command.slice(at + 2)];
}

/** Codex's TUI takes up a conversation by its `resume SESSION_ID` subcommand; its options follow. */
export function codexResumeArgv(command: readonly string[], sessionId: string): string[] {
  return afterProgram(command, ["resume", sessionId]);
}

export function profileResumeArgv(command: readonly string[], args: string[]): string[] {
  return afterProgram(command, args);
}

/** A Claude Code command given a new conversation's id in place of its old one. */
export function withSessionId(command: readonly string[], sessionId: string): string[] {
  const at = command.indexOf("--session-id");
  if (at === -1) return [...command];
  return [...command.slice(0, at + 1), sessionId, ...command.slice(at + 2)];
}
