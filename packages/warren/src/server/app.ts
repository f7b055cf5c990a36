import swagger from "@fastify/swagger";
import websocket from "@fastify/websocket";
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import type { Clock } from "../engine/index.js";
import { PROTOCOL_VERSION } from "../engine/types.js";
import { viewerRoutes } from "../web/viewer-routes.js";
import { installErrorHandling } from "./http-error.js";
import { installJsonParser } from "./json-body.js";
import {
  DEFAULT_KEEP_ENDED_RUNS,
  DEFAULT_LEASE_TTL_S,
  DEFAULT_MAX_LIVE_RUNS,
  DEFAULT_SPECTATOR_MAX_BUFFERED_BYTES,
  MAX_BODY_BYTES,
} from "./limits.js";
import { installProtocolVersion } from "./protocol-version.js";
import { agentRoutes } from "./routes/agents.js";
import { commandRoutes } from "./routes/commands.js";
import { runRoutes } from "./routes/runs.js";
import { spectateRoutes } from "./routes/spectate.js";
import { RunRegistry } from "./run-registry.js";
import { bundledScenarios, type ScenarioCatalog } from "./scenario-catalog.js";
import { validatorCompiler } from "./validation.js";
import { type ErrorBody, PROTOCOL_HEADER } from "./wire.js";

export interface ServerOptions {
  /** Seconds a lease lives without a request (default 300). */
  leaseTtlS?: number;
  /** Runs not yet ended at once (default 100); more are refused with 503. */
  maxLiveRuns?: number;
  /** Ended runs remembered (default 1000); older ones are forgotten. */
  keepEndedRuns?: number;
  /** Unread bytes after which a live spectator is lagged (default 1 MiB). */
  spectatorMaxBufferedBytes?: number;
  scenarios?: ScenarioCatalog;
  clock?: Clock;
  logger?: boolean;
}

export interface WarrenServer {
  app: FastifyInstance;
  registry: RunRegistry;
}

/** Builds the warren-agent/0 server (not yet listening). Closing it ends every run still going. */
export async function buildServer(options: ServerOptions = {}): Promise<WarrenServer> {
  const catalog = options.scenarios ?? bundledScenarios;
  const registry = new RunRegistry({
    catalog,
    leaseTtlMs: (options.leaseTtlS ?? DEFAULT_LEASE_TTL_S) * 1000,
    maxLiveRuns: options.maxLiveRuns ?? DEFAULT_MAX_LIVE_RUNS,
    keepEndedRuns: options.keepEndedRuns ?? DEFAULT_KEEP_ENDED_RUNS,
    clock: options.clock,
  });
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: MAX_BODY_BYTES,
    // Errors fastify raises before routing (a URL that does not decode) get the same shape.
    frameworkErrors: (error, _request, reply) => {
      void (reply as FastifyReply)
        .code(400)
        .header(PROTOCOL_HEADER, PROTOCOL_VERSION)
        .send({ error: "bad_request", detail: error.message } satisfies ErrorBody);
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  // Responses are the engine's objects as they are: schemas document them, never strip them.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  installErrorHandling(app);
  installJsonParser(app);
  installProtocolVersion(app);
  await app.register(swagger, {
    openapi: {
      info: {
        title: "warren-agent/0",
        version: PROTOCOL_VERSION,
        description:
          "Remote control of agents in a WARREN run. Errors are {error, detail}; every /v1 response carries X-Warren-Protocol.",
      },
    },
  });
  // Runs end first (this hook is added before the WebSocket plugin's own), so long polls answer and
  // spectators see the terminal status before their sockets close.
  app.addHook("preClose", async () => registry.disposeAll());
  await app.register(websocket);
  app.websocketServer.on("headers", (headers: string[]) => {
    headers.push(`${PROTOCOL_HEADER}: ${PROTOCOL_VERSION}`);
  });
  runRoutes(app, registry, catalog);
  agentRoutes(app, registry);
  commandRoutes(app, registry);
  spectateRoutes(app, registry, options.spectatorMaxBufferedBytes ?? DEFAULT_SPECTATOR_MAX_BUFFERED_BYTES);
  viewerRoutes(app, registry);
  app.get("/v1/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  return { app, registry };
}

export interface ListeningServer extends WarrenServer {
  /** e.g. http://127.0.0.1:8080 */
  url: string;
  close(): Promise<void>;
}

/** Builds the server and listens on host:port (port 0 picks a free one). */
export async function startServer(
  listen: { host?: string; port?: number },
  options: ServerOptions = {},
): Promise<ListeningServer> {
  const server = await buildServer(options);
  const host = listen.host ?? "127.0.0.1";
  await server.app.listen({ host, port: listen.port ?? 8080 });
  const address = server.app.server.address();
  const port = typeof address === "object" && address ? address.port : listen.port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return { ...server, url: `http://${shownHost}:${port}`, close: () => server.app.close() };
}
