import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * A refused WebSocket upgrade (403, 404, 409...) is answered on a socket no HTTP parser reads any
 * more: closed once answered, or it stays open and holds the server's close. An accepted one is
 * hijacked and never finishes its HTTP answer. Set per upgrade request, not as a hook every
 * request runs.
 */
export function closeWhenRefused(request: FastifyRequest, reply: FastifyReply): void {
  reply.raw.once("finish", () => request.raw.socket?.destroySoon());
}
