import type { RedisOptions } from "ioredis";

/**
 * The Redis connection a `--queue` URL names: redis://[[USER]:PASSWORD@]HOST[:PORT][/DB], or
 * rediss:// for TLS. Throws an Error saying what is wrong.
 */
export function parseQueueUrl(text: string): RedisOptions {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`--queue must be a URL like redis://HOST:PORT (got "${text}")`);
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    throw new Error(`--queue must be a redis:// or rediss:// URL (got "${text}")`);
  }
  if (url.hostname === "") throw new Error(`--queue names no host (got "${text}")`);
  const db = url.pathname.replace(/^\//, "");
  if (db !== "" && !/^\d+$/.test(db)) throw new Error(`--queue's database must be a number (got "${db}")`);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port === "" ? 6379 : Number(url.port),
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
    ...(url.protocol === "rediss:" ? { tls: {} } : {}),
    // BullMQ's workers block on Redis; they need commands retried for as long as it takes.
    maxRetriesPerRequest: null,
  };
}
