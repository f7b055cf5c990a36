import type { FastifyInstance } from "fastify";
import {
  type Briefing,
  type ClaimResponse,
  type Envelope,
  MAX_WAIT_S,
  operations,
  type ReleaseResponse,
} from "../../protocol/index.js";
import type { AccessToken } from "../access-token.js";
import type { HostedRun } from "../hosted-run.js";
import { HttpError } from "../http-error.js";
import { presentedLease } from "../lease-token.js";
import { requireProtocol } from "../protocol-version.js";
import { routeSchema, routeUrl } from "../route-schema.js";
import type { RunRegistry } from "../run-registry.js";

const { claimAgent, getBriefing, pollObservations, releaseAgent } = operations;

interface AgentParams {
  run: string;
  agent: string;
}

/** Claim, briefing, the observation long poll and release: everything an agent's lease covers. */
export function agentRoutes(app: FastifyInstance, registry: RunRegistry, access: AccessToken): void {
  const hostedAgent = (params: AgentParams): HostedRun => {
    const hosted = registry.get(params.run);
    hosted.requireAgent(params.agent);
    return hosted;
  };

  app.post<{ Params: AgentParams; Querystring: { lease?: string; protocol?: string; holder?: string } }>(
    routeUrl(claimAgent),
    { schema: routeSchema(claimAgent), onRequest: async (request) => access.require(request) },
    async (request): Promise<ClaimResponse> => {
      requireProtocol(request.query.protocol, "protocol= parameter");
      const hosted = hostedAgent(request.params);
      const { run } = hosted;
      const agentId = request.params.agent;
      hosted.requireNotEnded();
      if (run.controllerOf(agentId) !== "remote") {
        throw new HttpError(
          "not_remote",
          `${agentId} is played by its ${run.controllerOf(agentId)} controller in ${run.id}; create a run with it in controlled_agents`,
        );
      }
      const claim = hosted.leases.claim(agentId, presentedLease(request), request.query.holder ?? "");
      if (!claim.ok) {
        throw new HttpError(
          "agent_leased",
          `${agentId} is leased${claim.holder ? ` by ${claim.holder}` : ""} until ${new Date(claim.expiresAt).toISOString()}; present that lease to resume, or claim after it expires or is released`,
        );
      }
      hosted.noteClaimed(agentId);
      registry.noteLeaseChange(run.id);
      return {
        lease: claim.token,
        briefing_revision: run.briefing(agentId).revision,
        run_id: run.id,
        agent_id: agentId,
        resumed: claim.resumed,
        lease_ttl_s: hosted.leases.ttlMs / 1000,
        lease_expires_unix: claim.expiresAt / 1000,
        outstanding_observation_id: run.outstanding(agentId)?.observation_id ?? null,
      };
    },
  );

  app.get<{ Params: AgentParams; Querystring: { lease?: string } }>(
    routeUrl(getBriefing),
    { schema: routeSchema(getBriefing) },
    async (request, reply): Promise<Briefing | undefined> => {
      const hosted = hostedAgent(request.params);
      hosted.leases.authenticate(request.params.agent, presentedLease(request));
      const briefing = hosted.run.briefing(request.params.agent);
      const etag = `"${briefing.content_hash}"`;
      void reply.header("etag", etag);
      if (request.headers["if-none-match"] === etag) {
        void reply.code(304);
        return undefined;
      }
      return briefing;
    },
  );

  app.get<{ Params: AgentParams; Querystring: { lease?: string; after: number; wait: number } }>(
    routeUrl(pollObservations),
    { schema: routeSchema(pollObservations) },
    async (request, reply): Promise<Envelope | undefined> => {
      const hosted = hostedAgent(request.params);
      const agentId = request.params.agent;
      hosted.requireNotEnded();
      const endHold = hosted.leases.hold(agentId, presentedLease(request));
      const waitMs = Math.min(request.query.wait, MAX_WAIT_S) * 1000;
      const wait = hosted.run.awaitObservation(agentId, request.query.after, waitMs);
      const onClose = (): void => {
        if (!reply.sent) wait.cancel();
      };
      request.raw.once("close", onClose);
      if (request.raw.socket?.destroyed) wait.cancel();
      const envelope = await wait.envelope;
      request.raw.off("close", onClose);
      endHold();
      if (envelope) return envelope;
      hosted.requireNotEnded();
      void reply.code(204);
      return undefined;
    },
  );

  app.post<{ Params: AgentParams; Querystring: { lease?: string } }>(
    routeUrl(releaseAgent),
    { schema: routeSchema(releaseAgent) },
    async (request): Promise<ReleaseResponse> => {
      const hosted = hostedAgent(request.params);
      hosted.leases.release(request.params.agent, presentedLease(request));
      registry.noteLeaseChange(hosted.run.id);
      return { released: true, run_id: hosted.run.id, agent_id: request.params.agent };
    },
  );
}
