/**
 * `warren serve [--host 127.0.0.1] [--port 8080] [--lease-ttl S] [--data DIR | --no-persist]`:
 * serves warren-agent/0 until SIGINT or SIGTERM, then ends every run still going (as interrupted)
 * and exits 0. Runs are kept in DIR (default: the user's state folder) and outlive the server.
 * Also runs on its own: `node --import tsx src/cli/serve.ts --port 8080`.
 */
import { pathToFileURL } from "node:url";
import { DEFAULT_LEASE_TTL_S, startServer } from "../server/index.js";
import { type CliCommand, type CliIo, UsageError } from "./command.js";
import { defaultDataDir } from "./data-dir.js";
import { parseOptions } from "./parse-options.js";

function parsePort(text: string | undefined): number {
  if (text === undefined) return 8080;
  if (!/^\d+$/.test(text) || Number(text) > 65535) {
    throw new UsageError(`--port must be an integer from 0 to 65535 (got "${text}")`);
  }
  return Number(text);
}

function parseLeaseTtl(text: string | undefined): number {
  if (text === undefined) return DEFAULT_LEASE_TTL_S;
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(seconds > 0)) {
    throw new UsageError(`--lease-ttl must be a positive number of seconds (got "${text}")`);
  }
  return seconds;
}

function parseDataDir(text: string | undefined, noPersist: boolean): string | undefined {
  if (noPersist && text !== undefined) throw new UsageError("--data and --no-persist exclude each other");
  if (noPersist) return undefined;
  if (text === "") throw new UsageError("--data must name a folder");
  return text ?? defaultDataDir();
}

export const serveCommand: CliCommand = {
  name: "serve",
  usage: "warren serve [--host 127.0.0.1] [--port 8080] [--lease-ttl S] [--data DIR | --no-persist]",
  summary:
    "Serve the warren-agent/0 protocol over HTTP (runs, leases, long polls, a spectator WebSocket), keeping runs across restarts.",
  async run(args, io) {
    const { values, positionals } = parseOptions(args, {
      host: { type: "string" },
      port: { type: "string" },
      "lease-ttl": { type: "string" },
      data: { type: "string" },
      "no-persist": { type: "boolean" },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const host = (values.host as string | undefined) ?? "127.0.0.1";
    const port = parsePort(values.port as string | undefined);
    const leaseTtlS = parseLeaseTtl(values["lease-ttl"] as string | undefined);
    const dataDir = parseDataDir(values.data as string | undefined, values["no-persist"] === true);
    const server = await startServer({ host, port }, { leaseTtlS, dataDir });
    const kept = dataDir === undefined ? "runs kept in memory only" : `runs kept in ${dataDir}`;
    io.out(`warren-agent/0 listening on ${server.url} (lease TTL ${leaseTtlS} s; ${kept})`);
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        resolve();
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    });
    await server.close();
    io.err("warren serve: stopped");
    return 0;
  },
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const io: CliIo = {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
  };
  try {
    process.exitCode = await serveCommand.run(process.argv.slice(2), io);
  } catch (error) {
    io.err(
      error instanceof UsageError
        ? `warren serve: ${error.message}\nUsage: ${serveCommand.usage}`
        : `warren serve: ${(error as Error).message}`,
    );
    process.exitCode = error instanceof UsageError ? 2 : 1;
  }
}
