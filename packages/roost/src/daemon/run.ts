import { DaemonRunningError } from "./lock.js";
import { startDaemon } from "./main.js";

/** `roost daemon`: the daemon in the foreground until shutdown, SIGTERM or SIGINT. */
export async function runDaemonForeground(home: string): Promise<number> {
  let daemon: Awaited<ReturnType<typeof startDaemon>>;
  try {
    daemon = await startDaemon({ home });
  } catch (err) {
    const prefix = err instanceof DaemonRunningError ? "roost daemon: refused: " : "roost daemon: ";
    process.stderr.write(`${prefix}${(err as Error).message}\n`);
    return 1;
  }
  process.stdout.write(`roost daemon ${process.pid} listening on ${daemon.state.paths.socket}\n`);
  const onSignal = () => void daemon.stop(false);
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  process.on("SIGHUP", () => {});
  process.on("uncaughtException", (err) => console.error(`roost daemon: uncaught: ${err.stack ?? err}`));
  process.on("unhandledRejection", (err) => console.error(`roost daemon: unhandled: ${String(err)}`));
  await daemon.done;
  return 0;
}
