import { parseArgs } from "node:util";
import { UsageError } from "./command.js";

type OptionSpec = Record<string, { type: "string" | "boolean"; multiple?: boolean }>;

export interface ParsedOptions {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/** Parses a command's flags strictly; unknown flags and missing values are usage errors. */
export function parseOptions(args: string[], options: OptionSpec): ParsedOptions {
  try {
    const parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: parsed.values as ParsedOptions["values"], positionals: parsed.positionals };
  } catch (error) {
    // node's own words for an unknown flag end in an unbalanced quote: said in ours.
    const flag =
      (error as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" &&
      args.find((a) => (error as Error).message.includes(`'${a}'`));
    throw new UsageError(
      flag ? `unknown flag ${flag}; a value that starts with "-" goes after --` : (error as Error).message,
    );
  }
}

/** A --seed value: an integer from 0 to 2^32-1. */
export function parseSeed(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) > 0xffffffff) {
    throw new UsageError(`--seed must be an integer from 0 to 4294967295 (got "${text}")`);
  }
  return Number(text);
}
