import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { WRITER_LOCK_DIR } from "../protocol/state-folders.js";
import { isProcessAlive } from "./process.js";

/**
 * A foreground session's writer lock: one file per session in the state folder,
 * `roost/session-locks/<first 32 hex of sha256(session)>.json`, owner-only, holding
 * `{"session": "<key>", "pid": <the holder's pid>, "at": "<ISO time>"}`. The process that holds it
 * writes the session; `peer_register` is taken only for the pid the lock names, while it lives.
 */
export interface WriterLock {
  session: string;
  pid: number;
  at: string;
}

export function writerLockPath(stateDir: string, session: string): string {
  const digest = createHash("sha256").update(session).digest("hex").slice(0, 32);
  return join(stateDir, WRITER_LOCK_DIR, `${digest}.json`);
}

/** The lock as its file says, or null when there is none (or it cannot be read). */
export function readWriterLock(stateDir: string, session: string): WriterLock | null {
  try {
    const raw = JSON.parse(readFileSync(writerLockPath(stateDir, session), "utf8")) as Partial<WriterLock>;
    if (typeof raw.session !== "string" || typeof raw.pid !== "number" || !Number.isSafeInteger(raw.pid))
      return null;
    return { session: raw.session, pid: raw.pid, at: typeof raw.at === "string" ? raw.at : "" };
  } catch {
    return null;
  }
}

/**
 * Takes the lock for `pid` (this process by default): refused, returning the holder's pid, while
 * another live process holds it; a lock whose holder is gone is taken over.
 */
export function takeWriterLock(
  stateDir: string,
  session: string,
  pid: number = process.pid,
): { taken: true; release(): void } | { taken: false; holder: number } {
  const path = writerLockPath(stateDir, session);
  mkdirSync(join(stateDir, WRITER_LOCK_DIR), { recursive: true, mode: 0o700 });
  const body = `${JSON.stringify({ session, pid, at: new Date().toISOString() })}\n`;
  try {
    const fd = openSync(path, "wx", 0o600);
    writeFileSync(fd, body);
    closeSync(fd);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const held = readWriterLock(stateDir, session);
    if (held && held.pid !== pid && isProcessAlive(held.pid)) return { taken: false, holder: held.pid };
    // Its holder is gone: written whole to a temporary file and renamed over it.
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, body, { mode: 0o600 });
    renameSync(temporary, path);
  }
  return {
    taken: true,
    release: () => {
      if (readWriterLock(stateDir, session)?.pid !== pid) return;
      try {
        unlinkSync(path);
      } catch {
        // Gone already.
      }
    },
  };
}
