import { appendFileSync, mkdirSync } from "node:fs";
import { statePaths } from "../../home/paths.js";
import { DatabaseRefusedError } from "../store/database-file.js";
import { DaemonRunningError } from "./daemon-lock.js";
import { startDaemon } from "./start-daemon.js";

/** After SIGTERM or SIGINT, how long the daemon may take to stop before it exits regardless. */
const SIGNAL_STOP_PATIENCE_MS = 10_000;

/** Logs to stderr and to the state folder's daemon.log (a daemon started in the background has no terminal). */
function logger(home: string): (line: string) => void {
  const { stateDir, log } = statePaths(home);
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  return (line) => {
    const stamped = `${new Date().toISOString()} [${process.pid}] ${line}\n`;
    process.stderr.write(stamped);
    try {
      appendFileSync(log, stamped, { mode: 0o600 });
    } catch {
      // The log is a convenience: a full disk must not stop the daemon.
    }
  };
}

/** `roost daemon`: the daemon in the foreground until shutdown, SIGTERM or SIGINT. */
export async function runDaemonForeground(home: string): Promise<number> {
  const log = logger(home);
  log(`starting on ${home}`);
  let daemon: Awaited<ReturnType<typeof startDaemon>>;
  try {
    daemon = await startDaemon({ home, log });
  } catch (err) {
    log(
      `${err instanceof DaemonRunningError || err instanceof DatabaseRefusedError ? "refused to start: " : "could not start: "}${(err as Error).message}`,
    );
    return 1;
  }
  log(`listening on ${daemon.state.paths.socket}`);
  let signalled = false;
  const onSignal = (signal: string) => {
    if (signalled) {
      log(`${signal} again: exiting now`);
      process.exit(1);
    }
    signalled = true;
    log(`${signal}: stopping (jobs keep running in the process host)`);
    void daemon.stop(false);
    // A signal always ends the daemon: whatever the stop waits on, it does not wait past this.
    setTimeout(() => {
      log(`${signal}: the stop took over ${SIGNAL_STOP_PATIENCE_MS} ms; exiting now`);
      process.exit(1);
    }, SIGNAL_STOP_PATIENCE_MS).unref();
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  process.on("SIGHUP", () => {});
  process.on("uncaughtException", (err) => log(`uncaught: ${err.stack ?? err}`));
  process.on("unhandledRejection", (err) => log(`unhandled: ${(err as Error)?.stack ?? String(err)}`));
  await daemon.done;
  log("stopped");
  return 0;
}
