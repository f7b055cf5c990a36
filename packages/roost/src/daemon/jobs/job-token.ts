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

/** Whether `token` is the one whose hash is kept ("" before the job's first start: none is). */
export function tokenMatches(hash: string, token: string): boolean {
  const kept = Buffer.from(hash, "hex");
  const given = Buffer.from(tokenHash(token), "hex");
  return kept.length === given.length && timingSafeEqual(kept, given);
}
