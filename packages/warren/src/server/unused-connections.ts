import type { IncomingMessage, Server } from "node:http";
import type { Socket } from "node:net";

/**
 * Tracks the connections on which no request has come yet, and returns what ends them. fetch
 * opens such a connection ahead after an aborted request and may hold it; Node counts a
 * connection idle only once it has carried a request, so a closing server ends the idle ones and
 * waits for these until their header timeout, a minute. Requests under way and WebSockets are not
 * among them.
 */
export function trackUnusedConnections(server: Server): () => void {
  const unused = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    unused.add(socket);
    socket.once("close", () => unused.delete(socket));
  });
  const used = (request: IncomingMessage) => unused.delete(request.socket);
  server.on("request", used);
  server.on("upgrade", used);
  server.on("connect", used);
  return () => {
    for (const socket of unused) socket.destroy();
    unused.clear();
  };
}
