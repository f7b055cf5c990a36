import type { FastifyRequest } from "fastify";

/** Requests whose bearer is the server's access token: it is not their lease. */
const accessBearers = new WeakSet<FastifyRequest>();

export function markAccessBearer(request: FastifyRequest): void {
  accessBearers.add(request);
}

/**
 * The lease a request presents: `?lease=<token>`, or else `Authorization: Bearer <token>` unless
 * that is the server's access token (a client of a server with one sends its lease in ?lease=).
 */
export function presentedLease(request: FastifyRequest): string | undefined {
  const query = request.query as { lease?: string } | undefined;
  if (query?.lease !== undefined) return query.lease;
  if (accessBearers.has(request)) return undefined;
  const auth = request.headers.authorization;
  const match = auth === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(auth);
  return match ? match[1] : undefined;
}
