import type { FastifyInstance } from "fastify";
import { operations } from "../../protocol/index.js";
import { HttpError } from "../http-error.js";
import { routeSchema, routeUrl } from "../route-schema.js";
import type { RunRegistry } from "../run-registry.js";
import { SpectatorStream } from "../spectator.js";

export function spectateRoutes(app: FastifyInstance, registry: RunRegistry, maxBufferedBytes: number): void {
  app.route<{ Params: { run: string }; Querystring: { since: number } }>({
    method: "GET",
    url: routeUrl(operations.spectate),
    schema: routeSchema(operations.spectate),
    // Checked before the upgrade, so an unknown run is a plain 404.
    preHandler: async (request) => {
      registry.log(request.params.run);
    },
    handler: async () => {
      throw new HttpError(
        "upgrade_required",
        "the spectator stream is a WebSocket: connect with Upgrade: websocket",
      );
    },
    wsHandler: (socket, request) => {
      new SpectatorStream(registry.log(request.params.run), socket, request.query.since, maxBufferedBytes);
    },
  });
}
