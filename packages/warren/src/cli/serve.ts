/**
 * `warren serve [--host 127.0.0.1] [--port 8080] [--lease-ttl S] [--token T] [--data DIR | --no-persist] ...`:
 * serves warren-agent/0 until SIGINT or SIGTERM, then ends every run still going (as interrupted)
 * and exits 0. Runs are kept in DIR (default: the user's state folder) and outlive the server.
 * Also runs on its own: `node --import tsx src/cli/serve.ts --port 8080`.
 */
import { pathToFileURL } from "node:url";
import { isLoopback } from "../server/allowed-hosts.js";
import {
  DEFAULT_CLAIM_WITHIN_S,
  DEFAULT_LEASE_TTL_S,
  DEFAULT_MAX_RUN_BYTES,
  DEFAULT_MAX_RUNS_PER_CLIENT,
  MAX_CLAIM_WITHIN_S,
  startServer,
} from "../server/index.js";
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

function parseSeconds(flag: string, text: string | undefined, fallback: number, max = Infinity): number {
  if (text === undefined) return fallback;
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(seconds > 0) || seconds > max) {
    throw new UsageError(
      `${flag} must be a positive number of seconds${Number.isFinite(max) ? ` up to ${max}` : ""} (got "${text}")`,
    );
  }
  return seconds;
}

function parseCount(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^[1-9]\d*$/.test(text)) throw new UsageError(`${flag} must be a positive integer (got "${text}")`);
  return Number(text);
}

function parseDataDir(text: string | undefined, noPersist: boolean): string | undefined {
  if (noPersist && text !== undefined) throw new UsageError("--data and --no-persist exclude each other");
  if (noPersist) return undefined;
  if (text === "") throw new UsageError("--data must name a folder");
  return text ?? defaultDataDir();
}

/** Resolves at the first SIGINT or SIGTERM from now on. */
function stopSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

export const serveCommand: CliCommand = {
  name: "serve",
  usage:
    "warren serve [--host 127.0.0.1] [--port 8080] [--lease-ttl S] [--data DIR | --no-persist] [--token T] [--allow-host NAME]... [--insecure-no-token] [--claim-within S] [--max-runs-per-client N] [--max-run-bytes N]",
  summary:
    "Serve the warren-agent/0 protocol over HTTP (runs, leases, long polls, a spectator WebSocket), keeping runs across restarts.",
  async run(args, io) {
    const { values, positionals } = parseOptions(args, {
      host: { type: "string" },
      port: { type: "string" },
      "lease-ttl": { type: "string" },
      data: { type: "string" },
      "no-persist": { type: "boolean" },
      token: { type: "string" },
      "allow-host": { type: "string", multiple: true },
      "insecure-no-token": { type: "boolean" },
      "claim-within": { type: "string" },
      "max-runs-per-client": { type: "string" },
      "max-run-bytes": { type: "string" },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const host = (values.host as string | undefined) ?? "127.0.0.1";
    const port = parsePort(values.port as string | undefined);
    const leaseTtlS = parseSeconds(
      "--lease-ttl",
      values["lease-ttl"] as string | undefined,
      DEFAULT_LEASE_TTL_S,
    );
    const token = (values.token as string | undefined) ?? (process.env.WARREN_TOKEN || undefined);
    if (token !== undefined && !/^[\x21-\x7e]{16,256}$/.test(token)) {
      throw new UsageError("--token (or WARREN_TOKEN) must be 16 to 256 printable characters without spaces");
    }
    const insecureNoToken = values["insecure-no-token"] === true;
    const dataDir = parseDataDir(values.data as string | undefined, values["no-persist"] === true);
    // Listening for SIGINT/SIGTERM before starting, so a signal sent as soon as the listening line
    // shows (or while the server starts) closes it cleanly rather than killing the process.
    const stopped = stopSignal();
    const server = await startServer(
      { host, port },
      {
        leaseTtlS,
        dataDir,
        token,
        insecureNoToken,
        allowHosts: (values["allow-host"] as string[] | undefined) ?? [],
        claimWithinS: parseSeconds(
          "--claim-within",
          values["claim-within"] as string | undefined,
          DEFAULT_CLAIM_WITHIN_S,
          MAX_CLAIM_WITHIN_S,
        ),
        maxRunsPerClient: parseCount(
          "--max-runs-per-client",
          values["max-runs-per-client"] as string | undefined,
          DEFAULT_MAX_RUNS_PER_CLIENT,
        ),
        maxRunBytes: parseCount(
          "--max-run-bytes",
          values["max-run-bytes"] as string | undefined,
          DEFAULT_MAX_RUN_BYTES,
        ),
      },
    );
    const kept = dataDir === undefined ? "runs kept in memory only" : `runs kept in ${dataDir}`;
    io.out(`warren-agent/0 listening on ${server.url} (lease TTL ${leaseTtlS} s; ${kept})`);
    if (token !== undefined) {
      io.out(
        `viewer: ${server.url}/?token=${encodeURIComponent(token)} (creating, deleting and claiming need the token)`,
      );
    }
    if (!isLoopback(host)) {
      io.err(
        token === undefined
          ? `warren serve: warning: listening on ${host} with no token (--insecure-no-token): anyone who can reach this server can create, claim and delete runs`
          : `warren serve: warning: listening on ${host}: reachable from other machines; creating, deleting and claiming need the token`,
      );
    }
    await stopped;
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
