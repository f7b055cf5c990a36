import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type ErrorBody, errorStatus, PROTOCOL_HEADER, PROTOCOL_VERSION } from "../protocol/index.js";

/**
 * Answers the server gives before any route is found, in the protocol's `{error, detail}` shape
 * with its header: a URL that does not decode, a request Node cannot parse (an unknown method,
 * headers too large) and a CONNECT.
 */

/** For fastify's `frameworkErrors`: a URL that does not decode. */
export function answerFrameworkError(error: Error, _request: FastifyRequest, reply: FastifyReply): void {
  void reply
    .code(errorStatus("bad_request"))
    .header(PROTOCOL_HEADER, PROTOCOL_VERSION)
    .send({ error: "bad_request", detail: error.message } satisfies ErrorBody);
}

/** Writes a whole HTTP error response on a raw socket and closes it. */
function answerRaw(socket: Duplex, body: ErrorBody): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const text = JSON.stringify(body);
  const status = errorStatus(body.error);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(text)}\r\n` +
      `${PROTOCOL_HEADER}: ${PROTOCOL_VERSION}\r\n` +
      "Connection: close\r\n\r\n" +
      text,
  );
}

/** For fastify's `clientErrorHandler`: a request Node's parser refused. */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  if (error.code === "HPE_HEADER_OVERFLOW") {
    answerRaw(socket, {
      error: "headers_too_large",
      detail: "the request's headers are too large; send fewer or shorter headers",
    });
    return;
  }
  const detail =
    error.code === "HPE_INVALID_METHOD"
      ? "the request's method is not one this server knows; routes take GET or POST"
      : `the request could not be parsed as HTTP: ${error.message}`;
  answerRaw(socket, { error: "bad_request", detail });
}

/** For the HTTP server's `connect` event: this server is not a proxy. */
export function answerConnect(_request: unknown, socket: Duplex): void {
  answerRaw(socket, {
    error: "bad_request",
    detail: "CONNECT is not supported: this server is not a proxy; routes take GET or POST",
  });
}
