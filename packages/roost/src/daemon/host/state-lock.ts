/**
 * One host per state folder, and one daemon. The lock is held for the process's whole life. On
 * Linux it is a socket bound in the abstract namespace: the kernel frees it when the process dies,
 * so it is never stale and two processes starting at once cannot both take it. Elsewhere it is a
 * lock file holding the pid, taken over when that pid is gone.
 */
import { createHash } from "node:crypto";
import { closeSync, openSync, readFileSync, realpathSync, writeSync } from "node:fs";
import { createServer } from "node:net";
import { isProcessAlive } from "../../home/process.js";
import { hostLockPath, removeIfPresent } from "./files.js";

export interface HostLock {
  release(): void;
}

/** Who holds a state folder's lock: each has its own. */
export type LockHolder = "host" | "daemon";

/** Takes the state folder's host lock, or answers null when another live host holds it. */
export function acquireHostLock(stateDir: string): Promise<HostLock | null> {
  return acquireStateLock(stateDir, "host", hostLockPath(stateDir));
}

/**
 * Takes the state folder's lock for `holder`, or answers null when another live process holds it.
 * `lockPath` is the lock file where there are no abstract sockets.
 */
export async function acquireStateLock(
  stateDir: string,
  holder: LockHolder,
  lockPath: string,
): Promise<HostLock | null> {
  return process.platform === "linux" ? abstractSocketLock(stateDir, holder) : lockFile(lockPath);
}

function abstractSocketLock(stateDir: string, holder: LockHolder): Promise<HostLock | null> {
  const digest = createHash("sha256").update(realpathSync(stateDir)).digest("hex").slice(0, 40);
  const name = `\0roost-${holder}-${process.getuid?.() ?? 0}-${digest}`;
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EADDRINUSE") resolve(null);
      else reject(err);
    });
    server.listen({ path: name }, () => {
      server.unref();
      resolve({ release: () => server.close() });
    });
  });
}

function lockFile(path: string): HostLock | null {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return { release: () => removeIfPresent(path) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      if (isProcessAlive(Number(readFileSync(path, "utf8")))) return null;
      removeIfPresent(path);
    }
  }
  return null;
}
