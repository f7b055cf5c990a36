import websocket from "@fastify/websocket";
import Fastify, { type FastifyInstance } from "fastify";
import type { Clock } from "../engine/index.js";
import {
  MAX_BODY_BYTES,
  MAX_ID_CHARS,
  openApiDocument,
  operations,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
} from "../protocol/index.js";
import { viewerRoutes } from "../web/viewer-routes.js";
import { AccessToken } from "./access-token.js";
import { AllowedHosts, isLoopback } from "./allowed-hosts.js";
import { ClientQuota } from "./client-quota.js";
import { answerClientError, answerConnect, answerFrameworkError } from "./framework-errors.js";
import { installErrorHandling } from "./http-error.js";
import { installJsonParser } from "./json-body.js";
import {
  DEFAULT_CLAIM_WITHIN_S,
  DEFAULT_ENDED_RUN_BYTES,
  DEFAULT_ENDED_RUN_EVENTS,
  DEFAULT_KEEP_ENDED_RUNS,
  DEFAULT_LEASE_TTL_S,
  DEFAULT_MAX_LIVE_RUNS,
  DEFAULT_MAX_RUNS_PER_CLIENT,
  DEFAULT_SPECTATOR_MAX_BUFFERED_BYTES,
} from "./limits.js";
import { installRequestChecks } from "./request-checks.js";
import { answerOptions } from "./request-guard.js";
import { installResponseCheck } from "./response-check.js";
import { routeUrl } from "./route-schema.js";
import { agentRoutes } from "./routes/agents.js";
import { commandRoutes } from "./routes/commands.js";
import { runRoutes } from "./routes/runs.js";
import { spectateRoutes } from "./routes/spectate.js";
import { RunRegistry } from "./run-registry.js";
import { RunStore } from "./run-store.js";
import { bundledScenarios, type ScenarioCatalog } from "./scenario-catalog.js";
import { trackUnusedConnections } from "./unused-connections.js";
import { validatorCompiler } from "./validation.js";

export interface ServerOptions {
  /** Seconds a lease lives without a request (default 300). */
  leaseTtlS?: number;
  /** Runs not yet ended at once (default 100); more are refused with 503. */
  maxLiveRuns?: number;
  /** Runs not yet ended one client (by remote address) may have at once (default 20); more are 429. */
  maxRunsPerClient?: number;
  /** Wall seconds a created run waits for its claims before it ends abandoned, unless its request says (default 300). */
  claimWithinS?: number;
  /**
   * The byte budget (JSON characters) of each run's kept events and accepted commands (default
   * 64 MiB); a run past it ends over_budget, the others unharmed.
   */
  maxRunBytes?: number;
  /** The access token creation, deletion and claims need (`--token`); none: anyone may. */
  token?: string;
  /** Host names the server answers as beside its listening address and localhost (`--allow-host`). */
  allowHosts?: readonly string[];
  /**
   * Listen beyond loopback without a token (`--insecure-no-token`): anyone who can reach the
   * server may create, claim and delete runs. Without it, startServer refuses.
   */
  insecureNoToken?: boolean;
  /** Ended runs remembered (default 1000); older ones are forgotten (404). */
  keepEndedRuns?: number;
  /**
   * Events the ended runs kept whole hold together (default 200,000); past it the oldest keep
   * only their summary (GET shows it, other routes answer 410). The latest ended run stays whole.
   */
  endedRunEvents?: number;
  /** Bytes the ended runs kept whole hold together (default 128 MiB), beside endedRunEvents. */
  endedRunBytes?: number;
  /** Unread bytes after which a live spectator is lagged (default 1 MiB). */
  spectatorMaxBufferedBytes?: number;
  scenarios?: ScenarioCatalog;
  /** Check every answer against its protocol declaration, recording mismatches (tests turn it on). */
  checkResponses?: boolean;
  clock?: Clock;
  /** Latest events each run keeps in memory for spectators (default 100,000); older ones are dropped. */
  retainedEvents?: number;
  /**
   * The folder whose SQLite store keeps the runs across restarts (see run-store.ts); without it
   * runs live in memory only.
   */
  dataDir?: string;
  logger?: boolean;
}

export interface WarrenServer {
  app: FastifyInstance;
  registry: RunRegistry;
  /** With checkResponses: every answer that did not match its declaration, described. */
  responseProblems: string[];
}

/** Builds the warren-agent/0 server (not yet listening). Closing it ends every run still going. */
export async function buildServer(options: ServerOptions = {}): Promise<WarrenServer> {
  const catalog = options.scenarios ?? bundledScenarios;
  const store =
    options.dataDir === undefined
      ? undefined
      : RunStore.open(options.dataDir, options.clock && (() => options.clock!.now()));
  const registry = new RunRegistry({
    catalog,
    leaseTtlMs: (options.leaseTtlS ?? DEFAULT_LEASE_TTL_S) * 1000,
    maxLiveRuns: options.maxLiveRuns ?? DEFAULT_MAX_LIVE_RUNS,
    keepEndedRuns: options.keepEndedRuns ?? DEFAULT_KEEP_ENDED_RUNS,
    endedRunEvents: options.endedRunEvents ?? DEFAULT_ENDED_RUN_EVENTS,
    endedRunBytes: options.endedRunBytes ?? DEFAULT_ENDED_RUN_BYTES,
    clock: options.clock,
    retainedEvents: options.retainedEvents,
    maxRunBytes: options.maxRunBytes,
    claimWithinS: options.claimWithinS ?? DEFAULT_CLAIM_WITHIN_S,
    store,
  });
  const access = new AccessToken(options.token);
  const quota = new ClientQuota(options.maxRunsPerClient ?? DEFAULT_MAX_RUNS_PER_CLIENT);
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: MAX_BODY_BYTES,
    // Above every path parameter's declared limit, so a long one is a 422 naming its limit.
    routerOptions: { maxParamLength: 2 * MAX_ID_CHARS },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
  app.server.on("connect", answerConnect);
  const endUnusedConnections = trackUnusedConnections(app.server);
  let allowed: AllowedHosts | undefined;
  installRequestChecks(
    app,
    () => {
      // Asked once the server listens, not on every request: the address is a system call.
      if (allowed) return allowed;
      const address = app.server.address();
      if (address && typeof address === "object") {
        allowed = new AllowedHosts(address.address, address.port, options.allowHosts);
      }
      return allowed;
    },
    access,
  );
  answerOptions(app);
  app.setValidatorCompiler(validatorCompiler);
  // Responses are the engine's objects as they are: schemas document them, never strip them.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  installErrorHandling(app);
  installJsonParser(app);
  const responseProblems: string[] = [];
  if (options.checkResponses) installResponseCheck(app, responseProblems);
  // Runs end first (this hook is added before the WebSocket plugin's own), so long polls answer and
  // spectators see the terminal status before their sockets close.
  app.addHook("preClose", async () => registry.disposeAll());
  // Else the server's close waits a minute for a connection that never sent a request.
  app.addHook("preClose", async () => endUnusedConnections());
  // After the runs ended and were written.
  if (store) app.addHook("onClose", async () => store.close());
  // The WebSocket plugin wraps every route's handler and hooks every request and response: in a
  // context of its own with the spectator route, the other routes do not pay for it on each request.
  await app.register(async (spectating) => {
    await spectating.register(websocket);
    spectating.websocketServer.on("headers", (headers: string[]) => {
      headers.push(`${PROTOCOL_HEADER}: ${PROTOCOL_VERSION}`);
    });
    spectateRoutes(
      spectating,
      registry,
      options.spectatorMaxBufferedBytes ?? DEFAULT_SPECTATOR_MAX_BUFFERED_BYTES,
    );
    // Where the server's users find the spectators' sockets.
    app.decorate("websocketServer", spectating.websocketServer);
  });
  runRoutes(app, registry, catalog, { access, quota });
  agentRoutes(app, registry, access);
  commandRoutes(app, registry);
  viewerRoutes(app, registry);
  const document = openApiDocument();
  app.get(routeUrl(operations.getOpenApi), async () => document);
  return { app, registry, responseProblems };
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
  const host = listen.host ?? "127.0.0.1";
  if (!isLoopback(host) && options.token === undefined && !options.insecureNoToken) {
    throw new Error(
      `listening on ${host} would let anyone who can reach it create, claim and delete runs: give it a token (--token T or WARREN_TOKEN), or say --insecure-no-token`,
    );
  }
  const server = await buildServer({ ...options, allowHosts: [...(options.allowHosts ?? []), host] });
  await server.app.listen({ host, port: listen.port ?? 8080 });
  const address = server.app.server.address();
  const port = typeof address === "object" && address ? address.port : listen.port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return { ...server, url: `http://${shownHost}:${port}`, close: () => server.app.close() };
}
