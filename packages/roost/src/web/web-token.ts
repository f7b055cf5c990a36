import { randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { statePaths } from "../home/paths.js";

/** `roost web`'s token: made at its first start, kept owner-only in the state folder. */
export function webTokenPath(home: string): string {
  return join(statePaths(home).stateDir, "web-token");
}

/** The kept token, or a new one when there is none (or `rotate` asks for a new one). */
export function webToken(home: string, rotate = false): string {
  const path = webTokenPath(home);
  if (!rotate) {
    try {
      const kept = readFileSync(path, "utf8").trim();
      if (/^[0-9a-f]{64}$/.test(kept)) return kept;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  const token = randomBytes(32).toString("hex");
  mkdirSync(statePaths(home).stateDir, { recursive: true, mode: 0o700 });
  // Written whole under another name first: a reader never sees half a token.
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${token}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
  return token;
}

/** Whether `given` is the token, compared in constant time. */
export function isWebToken(token: string, given: string | null | undefined): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(token);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
