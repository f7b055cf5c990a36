import type { FastifyInstance } from "fastify";
import {
  COMMON_ERRORS,
  ErrorBody,
  OPERATIONS,
  type Operation,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  schemaProblems,
} from "../protocol/index.js";
import { routeUrl } from "./route-schema.js";

const byRoute = new Map<string, Operation>(OPERATIONS.map((op) => [`${op.method} ${routeUrl(op)}`, op]));

/** Why an answer does not match what the protocol declares for its route and status, if it does not. */
function answerProblem(
  method: string,
  route: string | undefined,
  status: number,
  payload: unknown,
): string | undefined {
  const op = route === undefined ? undefined : byRoute.get(`${method} ${route}`);
  const answer = op
    ? (op.responses[status] ?? COMMON_ERRORS[status])
    : status >= 400
      ? { schema: ErrorBody }
      : method === "OPTIONS" && status === 204
        ? { description: "the methods routes take (Allow), and no CORS grant" }
        : undefined;
  const where = `${method} ${route ?? "(no route)"} ${status}`;
  if (!answer) return `${where}: this status is not declared`;
  const text =
    typeof payload === "string" ? payload : payload === undefined || payload === null ? "" : undefined;
  if (text === undefined) return undefined; // a stream or buffer: not a JSON answer
  if (!answer.schema) return text === "" ? undefined : `${where}: declared without a body, but sent one`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${where}: the body is not JSON`;
  }
  const problems = schemaProblems(answer.schema, body);
  return problems && `${where}: ${problems}`;
}

/**
 * Checks every answer under /v1 against its declaration (route, status, body schema, protocol
 * header); each
 * mismatch is recorded in `problems` and logged. For tests and development: it costs a validation
 * per answer.
 */
export function installResponseCheck(app: FastifyInstance, problems: string[]): void {
  app.addHook("onSend", (request, reply, payload, done) => {
    if (request.url.startsWith("/v1")) {
      const problem =
        reply.getHeader(PROTOCOL_HEADER) === PROTOCOL_VERSION
          ? answerProblem(request.method, request.routeOptions.url, reply.statusCode, payload)
          : `${request.method} ${request.url} ${reply.statusCode}: no ${PROTOCOL_HEADER} header`;
      if (problem) {
        problems.push(problem);
        request.log.error(problem);
      }
    }
    done(null, payload);
  });
}
