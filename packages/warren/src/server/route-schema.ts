import type { FastifySchema } from "fastify";
import type { Operation } from "../protocol/index.js";

/** The fastify URL of an operation: /v1/runs/{run} → /v1/runs/:run. */
export function routeUrl(op: Operation): string {
  return op.path.replace(/\{(\w+)\}/g, ":$1");
}

/** What fastify validates for an operation: its path parameters, query string and body. */
export function routeSchema(op: Operation): FastifySchema {
  return {
    ...(op.params ? { params: op.params } : {}),
    ...(op.query ? { querystring: op.query } : {}),
    ...(op.body ? { body: op.body.schema } : {}),
  };
}
