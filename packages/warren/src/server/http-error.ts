import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ErrorBody, ErrorCode } from "../protocol/index.js";

/** An error a route throws on purpose: its HTTP status and the `{error, detail}` body. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    detail: string,
    readonly extra: Partial<ErrorBody> = {},
  ) {
    super(detail);
    this.name = "HttpError";
  }

  body(): ErrorBody {
    return { error: this.code, detail: this.message, ...this.extra };
  }
}

/** Schema keywords that bound a value's size: failing one is `limit_exceeded`. */
const LIMIT_KEYWORDS = new Set(["maxLength", "maxItems", "maxProperties"]);

/** Fastify's own errors (bad JSON, limits, schema failures) in the same `{error, detail}` shape. */
function fromFastify(error: FastifyError): HttpError {
  if (error.validation) {
    const where = error.validationContext ?? "request";
    const detail = `${where}${error.message.replace(/^[a-z]+/, "")}`;
    // A value past a declared limit is a 422 naming it, apart from a malformed one.
    const overLimit = error.validation.some((e) => LIMIT_KEYWORDS.has(e.keyword));
    return overLimit
      ? new HttpError(422, "limit_exceeded", detail)
      : new HttpError(400, "bad_request", detail);
  }
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new HttpError(413, "body_too_large", error.message);
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new HttpError(415, "unsupported_media_type", `${error.message}; send application/json`);
  }
  if (error instanceof SyntaxError || error.code === "FST_ERR_CTP_INVALID_JSON_BODY") {
    return new HttpError(400, "malformed_json", `the body is not valid JSON: ${error.message}`);
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return new HttpError(status, "bad_request", error.message);
  return new HttpError(500, "internal", "the server failed to handle this request; it has been logged");
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const http = error instanceof HttpError ? error : fromFastify(error);
    if (http.statusCode >= 500) request.log.error({ err: error }, "request failed");
    void reply.code(http.statusCode).send(http.body());
  });
  app.setNotFoundHandler((request, reply) => {
    const body: ErrorBody = {
      error: "not_found",
      detail: `no route ${request.method} ${request.url.split("?")[0]}; GET /v1/openapi.json lists them`,
    };
    void reply.code(404).send(body);
  });
}
