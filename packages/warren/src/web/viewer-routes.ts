import type { FastifyInstance } from "fastify";
import type { Run } from "../engine/run.js";
import { HttpError } from "../server/http-error.js";
import type { RunRegistry } from "../server/run-registry.js";
import { isViewerAsset, viewerAsset } from "./assets.js";
import { observationTexts } from "./observation-texts.js";
import { ASSET_PREFIX, servedPage } from "./pages.js";
import { buildScene } from "./scene.js";

/** Runs longer than this get no texts: replaying them would hold the server and its memory too long. */
export const MAX_TEXTS_EVENTS = 100_000;

/** An ended run's texts, replayed once however many pages ask; dropped with the run. */
const textsByRun = new WeakMap<Run, Promise<Record<string, string>>>();

const CONTENT_TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
};

/**
 * The run viewer: `/` lists the runs, `/runs/{run}` shows one (live through the spectator
 * WebSocket, or replayed once it has ended). The pages read `/v1` like any client, plus three
 * viewer-only documents: a run's scene, an agent's latest observation, and the observation texts
 * of an ended run (empty while it is going).
 */
export function viewerRoutes(app: FastifyInstance, registry: RunRegistry): void {
  const html = "text/html; charset=utf-8";
  app.get("/", { schema: { hide: true } }, async (_request, reply) =>
    reply.type(html).send(servedPage("warren runs", { page: "runs" })),
  );

  app.get<{ Params: { run: string } }>("/runs/:run", { schema: { hide: true } }, async (request, reply) =>
    reply
      .type(html)
      .send(servedPage(`warren ${request.params.run}`, { page: "run", run_id: request.params.run })),
  );

  app.get<{ Params: { file: string } }>(
    `${ASSET_PREFIX}:file`,
    { schema: { hide: true } },
    async (request, reply) => {
      const { file } = request.params;
      if (!isViewerAsset(file)) throw new HttpError(404, "not_found", `the viewer has no file "${file}"`);
      return reply
        .type(CONTENT_TYPES[file.split(".").pop()!]!)
        .header("cache-control", "no-cache")
        .send(viewerAsset(file));
    },
  );

  app.get<{ Params: { run: string } }>("/runs/:run/scene", { schema: { hide: true } }, async (request) => {
    const { run } = registry.get(request.params.run);
    return buildScene(run.id, run.scenario, run.seed, run.agents());
  });

  app.get<{ Params: { run: string; agent: string } }>(
    "/runs/:run/agents/:agent/observation",
    { schema: { hide: true } },
    async (request) => {
      const hosted = registry.get(request.params.run);
      hosted.requireAgent(request.params.agent);
      const latest = hosted.run.latestObservation(request.params.agent);
      return latest
        ? { observation_id: latest.observation_id, text: latest.text }
        : { observation_id: null, text: "" };
    },
  );

  app.get<{ Params: { run: string } }>(
    "/runs/:run/observations",
    { schema: { hide: true } },
    async (request) => {
      const { run } = registry.get(request.params.run);
      // A live run's texts come one at a time from the observation route; replaying it half-way is no use.
      if (!run.isEnded) return { texts: {} };
      if (run.eventCursor > MAX_TEXTS_EVENTS) {
        return {
          texts: {},
          note: `run ${run.id} has more than ${MAX_TEXTS_EVENTS} events: its texts are not replayed`,
        };
      }
      let texts = textsByRun.get(run);
      if (!texts) {
        texts = observationTexts(run.scenario, run.seed, run.events(0));
        textsByRun.set(run, texts);
      }
      return { texts: await texts };
    },
  );
}
