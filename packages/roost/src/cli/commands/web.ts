import { spawn } from "node:child_process";
import { RoostError } from "../../protocol/errors.js";
import type { Command } from "../command.js";

/** Names that reach this machine only: anything else needs `--host` said, and is warned about. */
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

export const web: Command = {
  name: "web",
  usage: "web [--port N] [--host ADDR] [--open] [--rotate-token]",
  summary:
    "Serves the fleet in a browser on 127.0.0.1 (port 7420 by default) and prints the address to open, with its token: rows, replies, stop, and a terminal agent's terminal to attach to.",
  positionals: [0, 0],
  options: {
    port: { type: "string" },
    host: { type: "string" },
    open: { type: "boolean" },
    "rotate-token": { type: "boolean" },
  },
  run: async ({ home, values }) => {
    const port = Number(values.port ?? 7420);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new RoostError(
        "bad_request",
        `--port must be a whole number from 0 to 65535, not ${values.port}`,
      );
    const host = typeof values.host === "string" ? values.host : "127.0.0.1";
    if (host === "") throw new RoostError("bad_request", "--host needs an address");
    const { webToken } = await import("../../web/web-token.js");
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
