import type { FastifyInstance } from "fastify";
import {
  type CreateRunRequest,
  operations,
  type RunList,
  type RunView,
  type ScenarioList,
} from "../../protocol/index.js";
import { routeSchema, routeUrl } from "../route-schema.js";
import type { RunRegistry } from "../run-registry.js";
import type { ScenarioCatalog } from "../scenario-catalog.js";

const { createRun, getRun, listRuns, listScenarios } = operations;

export function runRoutes(app: FastifyInstance, registry: RunRegistry, catalog: ScenarioCatalog): void {
  app.post<{ Querystring: { scenario: string; seed: number }; Body: CreateRunRequest | undefined }>(
    routeUrl(createRun),
    {
      schema: routeSchema(createRun),
      // No body means every default.
      preValidation: async (request) => {
        if (request.body === undefined) request.body = {};
      },
    },
    async (request, reply): Promise<RunView> => {
      const { scenario, seed } = request.query;
      const hosted = registry.create(scenario, seed, request.body ?? {});
      void reply.code(201).header("location", `/v1/runs/${hosted.run.id}`);
      return hosted.view();
    },
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
