import type { FastifyInstance } from "fastify";
import type { RunRegistry } from "../run-registry.js";
import type { ScenarioCatalog } from "../scenario-catalog.js";
import { createRunSchema, getRunSchema, listRunsSchema, listScenariosSchema } from "../schemas.js";
import type { CreateRunRequest, RunList, RunView, ScenarioList } from "../wire.js";

export function runRoutes(app: FastifyInstance, registry: RunRegistry, catalog: ScenarioCatalog): void {
  app.post<{ Querystring: { scenario: string; seed: number }; Body: CreateRunRequest | undefined }>(
    "/v1/runs",
    {
      schema: createRunSchema,
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
    "/v1/runs",
    { schema: listRunsSchema },
    async (): Promise<RunList> => ({
      runs: registry.list().map((h) => h.view()),
    }),
  );

  app.get<{ Params: { run: string } }>(
    "/v1/runs/:run",
    { schema: getRunSchema },
    async (request): Promise<RunView> => registry.get(request.params.run).view(),
  );

  app.get(
    "/v1/scenarios",
    { schema: listScenariosSchema },
    async (): Promise<ScenarioList> => ({
      scenarios: catalog.list(),
    }),
  );
}
