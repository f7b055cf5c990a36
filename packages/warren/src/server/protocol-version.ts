import type { FastifyReply, FastifyRequest } from "fastify";
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from "../protocol/index.js";
import { HttpError } from "./http-error.js";

/** Throws 409 when a client names a protocol other than ours; naming none is fine. */
export function requireProtocol(offered: unknown, where: string): void {
  if (offered === undefined) return;
  if (offered !== PROTOCOL_VERSION) {
    throw new HttpError(
      "protocol_mismatch",
      `this server speaks ${PROTOCOL_VERSION}; the request's ${where} asks for ${JSON.stringify(offered)}`,
    );
  }
}

/**
 * Version negotiation for everything under /v1 (request-checks.ts runs both on every request):
 * the response header on every reply, set before any check so that refusals, errors and 404s
 * carry it too (the spectator's 101 gets it from the WebSocket server); 409 for a request header
 * naming another version.
 */
export function announceProtocol(request: FastifyRequest, reply: FastifyReply): void {
  if (request.url.startsWith("/v1")) void reply.header(PROTOCOL_HEADER, PROTOCOL_VERSION);
}

export function requireProtocolHeader(request: FastifyRequest): void {
  if (request.url.startsWith("/v1")) {
    requireProtocol(request.headers[PROTOCOL_HEADER], `${PROTOCOL_HEADER} header`);
  }
}
