import type { FastifyInstance } from "fastify";
import type { RunRegistry } from "../server/run-registry.js";
import { type RunLog, StoredRun } from "../server/stored-run.js";
import { viewerPage } from "./pages.js";
import { replayRecord } from "./run-record.js";
import { buildScene } from "./scene.js";
import type * as Documents from "./viewer-documents.js";
import { worldState } from "./world-state.js";

/** Runs longer than this get no record: replaying them would hold the server and its memory too long. */
export const MAX_RECORD_EVENTS = 100_000;

/** An ended run's record, replayed once however many pages ask; dropped with the run. */
const records = new WeakMap<RunLog, Promise<Documents.RunRecord>>();
/** The records of runs read back from the store, by id: the latest few. */
const storedRecords = new Map<string, Promise<Documents.RunRecord>>();
const STORED_RECORDS_KEPT = 8;

/**
 * The run viewer: `/` lists the runs, `/runs/{run}` shows one (live through the spectator
 * WebSocket, or replayed once it has ended). The pages read `/v1` like any client, plus the
 * viewer's own documents: a run's scene, its world and its clock now, an agent's latest observation, and the
 * record of an ended run (observation texts and world changes; empty while it is going).
 */
export function viewerRoutes(app: FastifyInstance, registry: RunRegistry): void {
  const html = "text/html; charset=utf-8";
  app.get("/", async (_request, reply) => reply.type(html).send(viewerPage("warren runs", { page: "runs" })));

  app.get<{ Params: { run: string } }>("/runs/:run", async (request, reply) =>
    reply
      .type(html)
      .send(viewerPage(`warren ${request.params.run}`, { page: "run", run_id: request.params.run })),
  );

  app.get<{ Params: { run: string } }>("/runs/:run/scene", async (request): Promise<Documents.Scene> => {
    const run = registry.log(request.params.run);
    return buildScene(run.id, run.scenario, run.seed, run.agents());
  });

  app.get<{ Params: { run: string; agent: string } }>(
    "/runs/:run/agents/:agent/observation",
    async (request): Promise<Documents.ObservationAnswer> => {
      const hosted = registry.get(request.params.run);
      hosted.requireAgent(request.params.agent);
      const latest = hosted.run.latestObservation(request.params.agent);
      return latest
        ? { observation_id: latest.observation_id, text: latest.text }
        : { observation_id: null, text: "" };
    },
  );

  app.get<{ Params: { run: string } }>(
    "/runs/:run/world",
    async (request): Promise<Documents.WorldAnswer> => {
      const { run } = registry.get(request.params.run);
      return { cursor: run.eventCursor, ...worldState(run.world, run.scenario) };
    },
  );

  // The run's own clock, with the cursor it stands at: the page's clock moves on from it only
  // while the run is known to (a paced run between events), never past its next event.
  app.get<{ Params: { run: string } }>(
    "/runs/:run/clock",
    async (request): Promise<Documents.ClockAnswer> => {
      const { run } = registry.get(request.params.run);
      return { cursor: run.eventCursor, pace: run.pace, ...run.timeNow() };
    },
  );

  app.get<{ Params: { run: string } }>(
    "/runs/:run/record",
    async (request): Promise<Documents.RecordAnswer> => {
      const run = registry.log(request.params.run);
      // A live run's texts come one at a time from the observation route, its world from /world.
      if (!run.isEnded) return { texts: {}, changes: [] };
      if (run.oldestRetainedEvent > 1) {
        return {
          texts: {},
          changes: [],
          note: `run ${run.id} kept only its events from #${run.oldestRetainedEvent}: it cannot be replayed for its record`,
        };
      }
      if (run.eventCursor > MAX_RECORD_EVENTS) {
        return {
          texts: {},
          changes: [],
          note: `run ${run.id} has more than ${MAX_RECORD_EVENTS} events: it is not replayed for its record`,
        };
      }
      return recordOf(run);
    },
  );
}

/** The run's record, replayed from its events once (a stored run's is found again by its id). */
function recordOf(run: RunLog): Promise<Documents.RunRecord> {
  const stored = run instanceof StoredRun;
  let record = stored ? storedRecords.get(run.id) : records.get(run);
  if (!record) {
    record = replayRecord(run.scenario, run.seed, run.events(0));
    if (!stored) records.set(run, record);
    else {
      storedRecords.set(run.id, record);
      for (const id of storedRecords.keys()) {
        if (storedRecords.size <= STORED_RECORDS_KEPT) break;
        storedRecords.delete(id);
      }
    }
  }
  return record;
}
