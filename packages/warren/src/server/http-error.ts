import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { RunError, RunErrorCode } from "../engine/index.js";
import { type ErrorBody, type ErrorCode, errorStatus } from "../protocol/index.js";

/** An error a route throws on purpose: the `{error, detail}` body, its HTTP status the code's. */
export class HttpError extends Error {
  constructor(
    readonly code: ErrorCode,
    detail: string,
    readonly extra: Partial<ErrorBody> = {},
    /** Only for a framework's own 4xx passed on as bad_request with its status. */
    readonly statusCode: number = errorStatus(code),
  ) {
    super(detail);
    this.name = "HttpError";
  }

  body(): ErrorBody {
    return { error: this.code, detail: this.message, ...this.extra };
  }
}

/** The engine's refusals as wire codes: the one mapping from engine to HTTP. */
const FROM_ENGINE: Record<RunErrorCode, ErrorCode> = {
  unknown_scenario: "unknown_scenario",
  unknown_agent: "unknown_agent",
  invalid_run_options: "bad_request",
  not_remote: "not_remote",
  unprocessable_command: "unprocessable_command",
  limit_exceeded: "limit_exceeded",
};

/**
 * An engine refusal as an HTTP answer. `named` says where the request named what the engine
 * refused: in the path, an unknown agent is a resource that is not there (404 unknown_agent); in
 * the body (a run's options), the body is what is wrong (400 bad_request), as for any bad option.
 */
export function httpErrorOf(error: RunError, named: "path" | "body"): HttpError {
  const code = FROM_ENGINE[error.code];
  return new HttpError(named === "body" && code === "unknown_agent" ? "bad_request" : code, error.message);
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
    return overLimit ? new HttpError("limit_exceeded", detail) : new HttpError("bad_request", detail);
  }
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new HttpError("body_too_large", error.message);
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new HttpError("unsupported_media_type", `${error.message}; send application/json`);
  }
  if (error instanceof SyntaxError || error.code === "FST_ERR_CTP_INVALID_JSON_BODY") {
    return new HttpError("malformed_json", `the body is not valid JSON: ${error.message}`);
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return new HttpError("bad_request", error.message, {}, status);
  return new HttpError("internal", "the server failed to handle this request; it has been logged");
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
    void reply.code(errorStatus(body.error)).send(body);
  });
}
