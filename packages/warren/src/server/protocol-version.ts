import type { FastifyInstance } from "fastify";
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
 * Version negotiation for everything under /v1: the response header on every reply (errors and
 * 404s included, and the spectator's 101), 409 for a request header naming another version.
 */
export function installProtocolVersion(app: FastifyInstance): void {
  // Callback-style hooks: they run on every request, and skip the promise machinery.
  app.addHook("onRequest", (request, reply, done) => {
    if (!request.url.startsWith("/v1")) return done();
    void reply.header(PROTOCOL_HEADER, PROTOCOL_VERSION);
    try {
      requireProtocol(request.headers[PROTOCOL_HEADER], `${PROTOCOL_HEADER} header`);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
  app.addHook("onSend", (request, reply, payload, done) => {
    if (request.url.startsWith("/v1")) void reply.header(PROTOCOL_HEADER, PROTOCOL_VERSION);
    done(null, payload);
  });
}
