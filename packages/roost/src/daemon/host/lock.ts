/**
 * One host per state folder. The lock is held for the host's whole life. On Linux it is a socket
 * bound in the abstract namespace: the kernel frees it when the process dies, so it is never stale
 * and two hosts starting at once cannot both take it. Elsewhere it is a lock file holding the pid,
 * taken over when that pid is gone.
 */
import { createHash } from "node:crypto";
import { closeSync, openSync, readFileSync, realpathSync, writeSync } from "node:fs";
import { createServer } from "node:net";
import { hostLockPath, removeIfPresent } from "./files.js";

export interface HostLock {
  release(): void;
}

/** Takes the state folder's host lock, or answers null when another live host holds it. */
export async function acquireHostLock(stateDir: string): Promise<HostLock | null> {
  return process.platform === "linux" ? abstractSocketLock(stateDir) : lockFile(stateDir);
}

function abstractSocketLock(stateDir: string): Promise<HostLock | null> {
  const digest = createHash("sha256").update(realpathSync(stateDir)).digest("hex").slice(0, 40);
  const name = `\0roost-host-${process.getuid?.() ?? 0}-${digest}`;
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

function lockFile(stateDir: string): HostLock | null {
  const path = hostLockPath(stateDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return { release: () => removeIfPresent(path) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      if (isAlive(Number(readFileSync(path, "utf8")))) return null;
      removeIfPresent(path);
    }
  }
  return null;
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
