import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach } from "node:test";
import type { JobIdentity } from "../../src/protocol/environment.js";
import { ScriptedDaemon } from "../fixtures/client-fake-daemon.js";

/**
 * For client suites against a scripted daemon: registers an `afterEach` that runs, newest first,
 * what the test pushed to `cleanups`; `scripted()` starts a daemon that is disposed of there.
 */
export function scriptedDaemonSuite() {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const clean of cleanups.splice(0).reverse()) await clean();
  });
  return {
    cleanups,
    async scripted(): Promise<ScriptedDaemon> {
      const daemon = await new ScriptedDaemon().listen();
      cleanups.push(() => daemon.dispose());
      return daemon;
    },
  };
}

/** The identity of job `job-1` on the scripted daemon; its folder is made if missing. */
export function jobIdentity(daemon: ScriptedDaemon): JobIdentity {
  const dir = join(daemon.dir, "job");
  mkdirSync(dir, { recursive: true });
  return { id: "job-1", token: "secret", socket: daemon.socketPath, dir };
}
