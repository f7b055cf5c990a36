import { parseArgs } from "node:util";
import { DaemonClient } from "../client/daemon-client.js";
import { roostHome } from "../home/paths.js";
import { RoostError } from "../protocol/errors.js";
import { terminalSafe, terminalSafeJson } from "../protocol/terminal-text.js";

type OptionSpec = { type: "string" | "boolean"; short?: string };

/** One `roost` command: its usage, its options, and what it does. */
export interface Command {
  name: string;
  usage: string;
  summary: string;
  /** Positionals it needs (at least) and takes (at most). */
  positionals: [min: number, max: number];
  options?: Record<string, OptionSpec>;
  run(ctx: CommandContext): Promise<number>;
}

export interface CommandContext {
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
  json: boolean;
  home: string;
  /** A connection to the daemon, started in the background when none runs. */
  client(): Promise<DaemonClient>;
  /**
   * Prints the human line, or the JSON value with `--json`: either made safe for the terminal
   * (what a line carries from an agent or a screen may hold escapes; JSON writes them escaped).
   */
  print(human: string, value: unknown): void;
}

function helpText(command: Command): string {
  const options = Object.keys(command.options ?? {});
  return [
    `usage: roost ${command.usage}`,
    "",
    command.summary,
    ...(options.length ? ["", `options: ${options.map((o) => `--${o}`).join(" ")} --help`] : []),
  ].join("\n");
}

/**
 * node's parse error in our words: its unknown-option message ends in an unbalanced quote
 * (`as in '-- "--foo"`), which reads as a cut message.
 */
function optionMessage(err: Error): string {
  const unknown = /^Unknown option '([^']+)'/.exec(err.message);
  if (unknown === null) return err.message;
  return `unknown option ${unknown[1]} (a TEXT that starts with "-" goes after --: -- "${unknown[1]}")`;
}

function usageError(command: Command, message: string): RoostError {
  return new RoostError("bad_request", `${message}\nusage: roost ${command.usage}`);
}

/** Parses the command line, runs the command, and turns every failure into `code: reason` and exit 1. */
export async function runCommand(command: Command, argv: string[]): Promise<number> {
  const options = {
    ...command.options,
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  } as Record<string, OptionSpec>;
  let clientInUse: DaemonClient | undefined;
  let json = argv.includes("--json");
  try {
    let parsed: ReturnType<typeof parseArgs>;
    try {
      parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    } catch (err) {
      throw usageError(command, optionMessage(err as Error));
    }
    const values = parsed.values as Record<string, string | boolean | undefined>;
    json = values.json === true;
    if (values.help) {
      process.stdout.write(`${helpText(command)}\n`);
      return 0;
    }
    const [min, max] = command.positionals;
    if (parsed.positionals.length < min) throw usageError(command, "missing arguments");
    if (parsed.positionals.length > max) throw usageError(command, "too many arguments");
    const home = roostHome();
    return await command.run({
      positionals: parsed.positionals,
      values,
      json,
      home,
      client: async () => {
        clientInUse ??= await DaemonClient.connect({ home, start: true });
        return clientInUse;
      },
      print: (human, value) => {
        process.stdout.write(
          json ? `${terminalSafeJson(value, 2)}\n` : `${terminalSafe(human, { lines: true })}\n`,
        );
      },
    });
  } catch (err) {
    const code = err instanceof RoostError ? err.code : "internal";
    const message = (err as Error).message;
    // A refusal's text may quote what an agent said (a name, a question): safe for the terminal too.
    if (json) process.stdout.write(`${terminalSafeJson({ ok: false, code, error: message })}\n`);
    process.stderr.write(`roost ${command.name}: ${terminalSafe(`${code}: ${message}`, { lines: true })}\n`);
    return 1;
  } finally {
    clientInUse?.close();
  }
}
