import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * A job's token: given to its process in its environment at each start, and kept by the daemon only
 * as a hash to check a request against, so the store on disk holds nothing that speaks for a job.
 * A random token of 192 bits needs no slow hash.
 */
export function newJobToken(): string {
  return randomBytes(24).toString("base64url");
}

export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * The token last found to match each kept hash. A session's every report and ack carries its
 * token, and hashing it each time cost more than the rest of a report; the token is in memory
 * anyway while its session speaks. Bounded: the oldest goes first.
 */
const matched = new Map<string, Buffer>();
const MATCHED_KEPT = 10_000;

/** Whether `token` is the one whose hash is kept ("" before the job's first start: none is). */
export function tokenMatches(hash: string, token: string): boolean {
  const given = Buffer.from(token);
  const known = matched.get(hash);
  if (known) return known.length === given.length && timingSafeEqual(known, given);
  const kept = Buffer.from(hash, "hex");
  const digest = createHash("sha256").update(given).digest();
  if (kept.length !== digest.length || !timingSafeEqual(kept, digest)) return false;
  if (matched.size >= MATCHED_KEPT) matched.delete(matched.keys().next().value!);
  matched.set(hash, given);
  return true;
}
