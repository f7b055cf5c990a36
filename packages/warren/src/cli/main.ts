import { type CliCommand, type CliIo, UsageError } from "./command.js";
import { COMMANDS } from "./command-list.js";

const io: CliIo = {
  out: (text) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith("\n") ? text : `${text}\n`),
};

function help(): string {
  // Usages longer than this put their summary on the next line instead of widening every row.
  const width = Math.min(64, Math.max(...COMMANDS.map((c) => c.usage.length)));
  const lines = COMMANDS.map((c) =>
    c.usage.length > width
      ? `  ${c.usage}\n  ${" ".repeat(width)}  ${c.summary}`
      : `  ${c.usage.padEnd(width)}  ${c.summary}`,
  );
  return `warren: a deterministic multi-agent simulation (protocol warren-agent/0)\n\nUsage:\n${lines.join("\n")}\n\nRun "warren COMMAND --help" for one command's usage.`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.out(help());
    return name === undefined ? 2 : 0;
  }
  const command: CliCommand | undefined = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`warren: unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(`Usage: ${command.usage}\n\n${command.summary}`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`warren ${command.name}: ${error.message}\nUsage: ${command.usage}`);
      return 2;
    }
    const code = (error as { code?: unknown }).code;
    io.err(
      `warren ${command.name}: ${typeof code === "string" ? `${code}: ` : ""}${(error as Error).message}`,
    );
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
