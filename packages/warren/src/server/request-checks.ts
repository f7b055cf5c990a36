import type { FastifyInstance } from "fastify";
import type { AccessToken } from "./access-token.js";
import type { AllowedHosts } from "./allowed-hosts.js";
import { announceProtocol, requireProtocolHeader } from "./protocol-version.js";
import { guardRequest } from "./request-guard.js";
import { closeWhenRefused } from "./upgrade-refusal.js";

/**
 * The checks every request passes before its route, in their order: Host and Origin first (a
 * request from a page the person did not mean gets nothing else), then the access token's screen,
 * then the protocol version; before them, a WebSocket upgrade is set to be closed if refused. One
 * callback-style hook, not one hook each: a hook is a turn of fastify's hook runner on every
 * request, and an async one a promise more.
 */
export function installRequestChecks(
  app: FastifyInstance,
  allowed: () => AllowedHosts | undefined,
  access: AccessToken,
): void {
  app.addHook("onRequest", (request, reply, done) => {
    try {
      if (request.headers.upgrade !== undefined) closeWhenRefused(request, reply);
      announceProtocol(request, reply);
      guardRequest(request, allowed());
      // Answered (a viewer page trading its ?token= for a cookie): the route does not run.
      if (access.screen(request, reply)) return;
      requireProtocolHeader(request);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}
