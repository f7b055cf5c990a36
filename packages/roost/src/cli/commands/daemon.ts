import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { DaemonClient, isDisconnected, RoostError } from "../../client/daemon-client.js";
import { statePaths } from "../../home/paths.js";
import { processGone } from "../../home/process.js";
import { builtDaemon } from "../../home/roost-command.js";
import type { Command } from "../command.js";

export const daemon: Command = {
  name: "daemon",
  usage: "daemon",
  summary: "Runs the daemon in the foreground (it logs to $ROOST_HOME/roost/daemon.log too).",
  positionals: [0, 0],
  run: async ({ home }) => {
    // Loaded here only: the other commands need none of the daemon's code. Built, it is the
    // daemon's bundle (scripts/bundles.mjs), one file rather than hundreds of modules.
    const bundle = builtDaemon();
    const { runDaemonForeground }: typeof import("../../daemon/start/run-foreground.js") = bundle
      ? await import(pathToFileURL(bundle).href)
      : await import("../../daemon/start/run-foreground.js");
    const code = await runDaemonForeground(home);
    // What the daemon held (the host's connection, timers) must not keep it alive once stopped.
    process.exit(code);
  },
};

/** How long the daemon has to close the connection once it answered a shutdown. */
const SHUTDOWN_PATIENCE_MS = 15_000;

export const shutdown: Command = {
  name: "shutdown",
  usage: "shutdown [--all] [--json]",
  summary: "Stops the daemon; jobs keep running in the process host. --all ends the jobs and the host too.",
  positionals: [0, 0],
  options: { all: { type: "boolean" } },
  run: async ({ home, values, print }) => {
    let client: DaemonClient;
    try {
      client = await DaemonClient.connect({ home });
    } catch (err) {
      if (!isDisconnected(err)) throw err;
      if (!values.all || !existsSync(statePaths(home).db)) {
        print("no daemon is running", { running: false });
        return 0;
      }
      // Jobs may still run in the process host without a daemon: one is started to end them.
      client = await DaemonClient.connect({ home, start: true });
    }
    // "Stopped" means gone: the daemon still closes its store after it closed the connection.
    const { pid } = await client.call("stats", {});
    // The daemon answers once what it ends has ended, then closes its connections and exits.
    const closed = new Promise<boolean>((resolve) => {
      client.on("close", () => resolve(true));
      setTimeout(() => resolve(false), SHUTDOWN_PATIENCE_MS).unref();
    });
    try {
      await client.call("shutdown", { all: values.all === true });
      if (!(await closed) || !(await processGone(pid, SHUTDOWN_PATIENCE_MS)))
        throw new RoostError(
          "internal",
          `the daemon (pid ${pid}) answered the shutdown but still runs after ${SHUTDOWN_PATIENCE_MS / 1000} s`,
        );
    } finally {
      client.close();
    }
    print(values.all ? "daemon, jobs and process host stopped" : "daemon stopped", { stopped: true });
    return 0;
  },
};
