import type { FastifyInstance } from "fastify";
import {
  type CreateRunRequest,
  operations,
  type RunList,
  type RunView,
  type ScenarioList,
} from "../../protocol/index.js";
import type { AccessToken } from "../access-token.js";
import type { ClientQuota } from "../client-quota.js";
import { HttpError } from "../http-error.js";
import { requireJsonContent } from "../json-body.js";
import { routeSchema, routeUrl } from "../route-schema.js";
import { deleteRun } from "../run-deletion.js";
import type { RunRegistry } from "../run-registry.js";
import type { ScenarioCatalog } from "../scenario-catalog.js";

const { createRun, getRun, listRuns, listScenarios } = operations;

export interface RunRouteGuards {
  access: AccessToken;
  quota: ClientQuota;
}

export function runRoutes(
  app: FastifyInstance,
  registry: RunRegistry,
  catalog: ScenarioCatalog,
  { access, quota }: RunRouteGuards,
): void {
  app.post<{ Querystring: { scenario: string; seed: number }; Body: CreateRunRequest | null | undefined }>(
    routeUrl(createRun),
    {
      schema: routeSchema(createRun),
      onRequest: async (request) => {
        access.require(request);
        requireJsonContent(request);
      },
      // No body means every default.
      preValidation: async (request) => {
        if (request.body === null) {
          throw new HttpError(
            "bad_request",
            "the body is JSON null: send an object of run options ({} or no body for every default)",
          );
        }
        if (request.body === undefined) request.body = {};
      },
    },
    async (request, reply): Promise<RunView> => {
      const { scenario, seed } = request.query;
      quota.admit(request.ip);
      const hosted = registry.create(scenario, seed, request.body ?? {});
      quota.hold(request.ip, hosted.run);
      void reply.code(201).header("location", `/v1/runs/${hosted.run.id}`);
      return hosted.view();
    },
  );

  app.delete<{ Params: { run: string } }>(
    routeUrl(operations.deleteRun),
    {
      schema: routeSchema(operations.deleteRun),
      onRequest: async (request) => {
        access.require(request);
        requireJsonContent(request);
      },
    },
    async (request): Promise<RunView> => deleteRun(registry, request.params.run),
  );

  app.get(
    routeUrl(listRuns),
    { schema: routeSchema(listRuns) },
    async (): Promise<RunList> => ({
      runs: registry.views(),
    }),
  );

  app.get<{ Params: { run: string } }>(
    routeUrl(getRun),
    { schema: routeSchema(getRun) },
    async (request): Promise<RunView> => registry.view(request.params.run),
  );

  app.get(
    routeUrl(listScenarios),
    { schema: routeSchema(listScenarios) },
    async (): Promise<ScenarioList> => ({
      scenarios: catalog.list(),
    }),
  );
}
