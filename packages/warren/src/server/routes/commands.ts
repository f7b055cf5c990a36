import type { FastifyInstance } from "fastify";
import { RunError } from "../../engine/index.js";
import { operations, type Receipt } from "../../protocol/index.js";
import { HttpError, httpErrorOf } from "../http-error.js";
import { presentedLease } from "../lease-token.js";
import { routeSchema, routeUrl } from "../route-schema.js";
import type { RunRegistry } from "../run-registry.js";
import { engineJudgesBody } from "../validation.js";

const { getCommand, submitCommand } = operations;

interface AgentParams {
  run: string;
  agent: string;
}

/** Commands and their receipts: the engine judges, the server maps its verdicts to HTTP. */
export function commandRoutes(app: FastifyInstance, registry: RunRegistry): void {
  app.post<{ Params: AgentParams; Querystring: { lease?: string }; Body: unknown }>(
    routeUrl(submitCommand),
    { schema: routeSchema(submitCommand), validatorCompiler: engineJudgesBody },
    async (request): Promise<Receipt> => {
      const hosted = registry.get(request.params.run);
      hosted.requireAgent(request.params.agent);
      hosted.leases.authenticate(request.params.agent, presentedLease(request));
      try {
        // Every verdict, rejected/stale/expired included, is a receipt with 200: the body says which.
        // The run steps on once the receipt is out: the agent need not wait for the others' turn.
        return hosted.run.submit(request.params.agent, request.body, { stepAfterReceipt: true });
      } catch (error) {
        if (error instanceof RunError) throw httpErrorOf(error, "path");
        throw error;
      }
    },
  );

  app.get<{ Params: AgentParams & { command_id: string }; Querystring: { lease?: string } }>(
    routeUrl(getCommand),
    { schema: routeSchema(getCommand) },
    async (request): Promise<Receipt> => {
      const { run: runId, agent, command_id } = request.params;
      const hosted = registry.get(runId);
      hosted.requireAgent(agent);
      hosted.leases.authenticate(agent, presentedLease(request));
      const receipt = hosted.run.receipt(agent, command_id);
      if (!receipt) {
        throw new HttpError(
          "unknown_command",
          `${agent} has no accepted command "${command_id}"; only accepted commands keep their id (rejected, stale and expired ones are judged again on retry)`,
        );
      }
      return receipt;
    },
  );
}
