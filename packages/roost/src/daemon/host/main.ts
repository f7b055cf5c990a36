/**
 * The process host's entry: `node main.js <stateDir>`, started detached by `connectHost`. It takes
 * the state folder's host lock (or leaves quietly when another host has it), serves
 * `<stateDir>/host.sock` (0600), and runs until shutdown or until idle.
 */

import { chmodSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { TUNING } from "../tuning.js";
import { hostSocketPath, removeIfPresent } from "./files.js";
import { HostServer } from "./host-server.js";
import { ANOTHER_HOST_EXIT_CODE } from "./protocol.js";
import { acquireHostLock } from "./state-lock.js";

function log(message: string): void {
  console.error(`${new Date().toISOString()} host ${process.pid}: ${message}`);
}

async function main(): Promise<void> {
  const stateDir = process.argv[2];
  if (!stateDir) throw new Error("usage: main <stateDir>");
  // The starter made the folder; a host starting late, after it was removed, has nothing to serve.
  if (!existsSync(stateDir)) throw new Error(`state folder ${stateDir} is gone`);
  const lock = await acquireHostLock(stateDir);
  if (!lock) {
    log("another host serves this state folder");
    process.exit(ANOTHER_HOST_EXIT_CODE);
  }
  const socketPath = hostSocketPath(stateDir);
  // Holding the lock, whatever socket is there belongs to a host that is gone.
  removeIfPresent(socketPath);
  const idleMs = TUNING.hostIdleMs;
  const server = createServer();
  const finish = () => {
    log("ending");
    server.close();
    removeIfPresent(socketPath);
    lock.release();
    process.exit(0);
  };
  const host = new HostServer({ idleMs, onEnd: finish });
  host.serve(server);
  // The socket is created owner-only: no moment where another user could connect.
  const umask = process.umask(0o177);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, resolve);
  });
  process.umask(umask);
  chmodSync(socketPath, 0o600);
  server.on("error", (err) => log(`server error: ${err.message}`));
  process.on("SIGHUP", () => {});
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      log(`${signal}: ending every job`);
      host.endJobs().finally(finish);
    });
  }
  // One bad moment must not take every job's terminal down with the host.
  process.on("uncaughtException", (err) => log(`uncaught: ${err.stack ?? err.message}`));
  process.on("unhandledRejection", (err) => log(`unhandled rejection: ${String(err)}`));
  log(`serving ${socketPath} (idle after ${idleMs} ms)`);
}

main().catch((err) => {
  log(`could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
