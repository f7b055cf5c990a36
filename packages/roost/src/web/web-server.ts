import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { WEB_COOKIE, WEB_LIVE_PATH, WEB_MAX_MESSAGE_BYTES } from "../protocol/web.js";
import { serveChannel } from "./web-channel.js";
import type { WebFleet } from "./web-fleet.js";
import { allowedHosts, refusal } from "./web-guard.js";
import { PAGE_ASSETS, PAGE_HTML, pageAsset, SECURITY_HEADERS } from "./web-page.js";
import { isWebToken } from "./web-token.js";
import { webUrl } from "./web-url.js";

export interface WebServerOptions {
  fleet: WebFleet;
  token: string;
  host: string;
  /** 0: any free port. */
  port: number;
}

export interface WebServer {
  port: number;
  /** The address to open, with the token: given to the person once, never logged. */
  url: string;
  close(): Promise<void>;
}

/** `roost web`'s HTTP server: the page, its files and its push channel, each behind the guard. */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: WEB_MAX_MESSAGE_BYTES });
  let hosts = new Set<string>();
  const server = createServer((request, response) => route(request, response, options.token, hosts));
  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refused = refusal(request, options.token, hosts, true);
    const path = new URL(request.url ?? "/", "http://x").pathname;
    if (refused || path !== WEB_LIVE_PATH) {
      const status = refused?.status ?? 404;
      const body = refused?.reason ?? "not found";
      socket.end(
        `HTTP/1.1 ${status} ${status === 404 ? "Not Found" : status === 401 ? "Unauthorized" : "Forbidden"}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => serveChannel(ws, options.fleet));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  hosts = allowedHosts(options.host, port);
  return {
    port,
    url: webUrl(options.host, port, options.token),
    close: () =>
      new Promise((resolve) => {
        for (const client of sockets.clients) client.terminate();
        sockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Answer {
  status: number;
  body: string;
  type?: string;
  headers?: Record<string, string>;
}

const text = (status: number, body: string, headers?: Record<string, string>): Answer => ({
  status,
  body,
  headers,
});

function route(request: IncomingMessage, response: ServerResponse, token: string, hosts: Set<string>): void {
  const answer = answerTo(request, token, hosts);
  response.writeHead(answer.status, {
    ...SECURITY_HEADERS,
    "content-type": answer.type ?? "text/plain; charset=utf-8",
    ...answer.headers,
  });
  response.end(request.method === "HEAD" ? undefined : answer.body);
}

function answerTo(request: IncomingMessage, token: string, hosts: Set<string>): Answer {
  const url = new URL(request.url ?? "/", "http://x");
  // The address roost web printed: its token is traded for the cookie, and dropped from the address.
  if (url.pathname === "/" && url.searchParams.has("token") && hosts.has(request.headers.host ?? "")) {
    if (!isWebToken(token, url.searchParams.get("token")))
      return text(401, "this token is not (or no longer) roost web's\n");
    return text(303, "", {
      location: "/",
      "set-cookie": `${WEB_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`,
    });
  }
  const refused = refusal(request, token, hosts, false);
  if (refused) return text(refused.status, `${refused.reason}\n`);
  if (request.method !== "GET" && request.method !== "HEAD")
    return text(405, "only GET\n", { allow: "GET, HEAD" });
  if (url.pathname === "/") return { status: 200, type: "text/html; charset=utf-8", body: PAGE_HTML };
  const asset = PAGE_ASSETS[url.pathname];
  if (asset) return { status: 200, type: asset.type, body: pageAsset(asset.file) };
  return text(404, "not found\n");
}
