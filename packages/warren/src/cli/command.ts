/** One `warren` subcommand; each lives in its own file under commands/. */
export interface CliCommand {
  name: string;
  usage: string;
  summary: string;
  /** Runs with the arguments after the command's name; resolves to the exit code. */
  run(args: string[], io: CliIo): Promise<number>;
}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** A usage mistake: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}
