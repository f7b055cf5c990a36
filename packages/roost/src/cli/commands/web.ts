import { spawn } from "node:child_process";
import { statePaths } from "../../home/paths.js";
import { readWebSettings, WEB_SUPERVISED_ENV } from "../../home/web-settings.js";
import { RoostError } from "../../protocol/errors.js";
import type { Command } from "../command.js";

/** Names that reach this machine only: anything else needs `--host` said, and is warned about. */
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

export const web: Command = {
  name: "web",
  usage: "web [--port N] [--host ADDR] [--open] [--rotate-token] [--url]",
  summary:
    "Serves the fleet in a browser on 127.0.0.1 (port 7420 by default, or roost.json's web section) and prints the address to open, with its token: rows, replies, stop, and a terminal agent's terminal to attach to. --url prints the address only (of the one the daemon runs with roost.json's web section).",
  positionals: [0, 0],
  options: {
    port: { type: "string" },
    host: { type: "string" },
    open: { type: "boolean" },
    "rotate-token": { type: "boolean" },
    url: { type: "boolean" },
  },
  run: async ({ home, values }) => {
    const settings = readWebSettings(statePaths(home));
    const port = Number(values.port ?? settings.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new RoostError(
        "bad_request",
        `--port must be a whole number from 0 to 65535, not ${values.port}`,
      );
    const host = typeof values.host === "string" ? values.host : settings.host;
    if (host === "") throw new RoostError("bad_request", "--host needs an address");
    const { webToken } = await import("../../web/web-token.js");
    const { webUrl } = await import("../../web/web-url.js");
    if (values.url) {
      // Port 0 is whichever port was free as a server started: only that server knows it.
      if (port === 0)
        throw new RoostError(
          "bad_request",
          "--url cannot know the address of a server on --port 0 (any free port, picked as it starts): roost web --port 0 prints the address it got",
        );
      process.stdout.write(`${webUrl(host, port, webToken(home, values["rotate-token"] === true))}\n`);
      return 0;
    }
    // Run by the daemon: it ends when the daemon does (its standard input closes), whatever ends it.
    const supervised = process.env[WEB_SUPERVISED_ENV] !== undefined;
    delete process.env[WEB_SUPERVISED_ENV];
    const { WebFleet } = await import("../../web/web-fleet.js");
    const { startWebServer } = await import("../../web/web-server.js");
    const token = webToken(home, values["rotate-token"] === true);
    const fleet = new WebFleet(home);
    await fleet.start();
    const server = await startWebServer({ fleet, token, host, port }).catch((error: Error) => {
      fleet.close();
      throw new RoostError("bad_request", `cannot listen on ${host}:${port}: ${error.message}`);
    });
    if (!LOOPBACK.test(host))
      process.stderr.write(
        `roost web: warning: listening on ${host}, beyond this machine: whoever reaches it with the token steers every session, over plain HTTP\n`,
      );
    process.stdout.write(`roost web: open ${server.url}\n`);
    if (values.open) openInBrowser(server.url);
    await new Promise<void>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
      if (supervised) process.stdin.once("close", resolve).resume();
    });
    fleet.close();
    await server.close();
    return 0;
  },
};

/** The person's browser, as the desktop opens an address; if none is there, the printed address stays. */
function openInBrowser(url: string): void {
  const opener = process.platform === "darwin" ? "open" : "xdg-open";
  const child = spawn(opener, [url], { stdio: "ignore", detached: true });
  child.on("error", () => process.stderr.write(`roost web: no ${opener} to open the address with\n`));
  child.unref();
}
