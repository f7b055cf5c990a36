import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AllowedHosts } from "./allowed-hosts.js";
import { HttpError } from "./http-error.js";

/** The methods some route takes, as an OPTIONS request is told. */
const METHODS = "GET, POST, DELETE, OPTIONS";

/**
 * Refuses what a web page the person did not mean could send: a request whose `Host` is not one
 * the server answers as (DNS rebinding), and one whose `Origin` is not the address it was sent to
 * (another site's page, another port's included: a fetch, form or WebSocket), on every route and
 * the spectator socket. Requests without `Origin` (every non-browser client; a browser's
 * same-origin GET) pass. Throws the 403; request-checks.ts runs it first on every request.
 */
export function guardRequest(request: FastifyRequest, allowed: AllowedHosts | undefined): void {
  // Not listening (a server driven by inject): there is no address to hold the Host to.
  if (!allowed) return;
  const host = request.headers.host;
  if (host === undefined || !allowed.has(host)) {
    throw new HttpError(
      "host_not_allowed",
      `this server does not answer as ${host === undefined ? "a request without a Host header" : `Host ${JSON.stringify(host)}`}; use its listening address or localhost (or start it with --allow-host NAME)`,
    );
  }
  const origin = request.headers.origin;
  if (origin === undefined) return;
  if (!isOwnOrigin(origin, host)) {
    throw new HttpError(
      "origin_not_allowed",
      `requests from pages of ${JSON.stringify(origin)} are refused: only this server's own pages may call it from a browser`,
    );
  }
}

/** A page of this server: its origin is the address the request was sent to (Host is checked). */
function isOwnOrigin(origin: string, host: string): boolean {
  try {
    const url = new URL(origin);
    const own = new URL(`http://${host}`);
    return (url.protocol === "http:" || url.protocol === "https:") && url.host === own.host;
  } catch {
    return false; // "null" (a sandboxed page or a file) and anything else that is not a URL
  }
}

/** An OPTIONS request is answered with the methods and no `Access-Control-Allow-Origin`: no other site is granted anything. */
export function answerOptions(app: FastifyInstance): void {
  app.route({
    method: "OPTIONS",
    url: "*",
    handler: async (_request, reply) => {
      void reply.code(204).header("allow", METHODS);
    },
  });
}
