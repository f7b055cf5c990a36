import type { FastifyRequest } from "fastify";

/** The lease a request presents: `?lease=<token>`, or else `Authorization: Bearer <token>`. */
export function presentedLease(request: FastifyRequest): string | undefined {
  const query = request.query as { lease?: string } | undefined;
  if (query?.lease !== undefined) return query.lease;
  const auth = request.headers.authorization;
  const match = auth === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(auth);
  return match ? match[1] : undefined;
}
