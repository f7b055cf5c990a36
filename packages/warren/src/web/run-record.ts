import type { RunEvent } from "../engine/events.js";
import { decisionsFromEvents, Run } from "../engine/run.js";
import type { ScenarioDefinition } from "../engine/scenario.js";
import type { RunRecord } from "./viewer-documents.js";
import { WorldFollower } from "./world-state.js";

/**
 * Records a run as it goes: the record returned fills up until the run ends. `cursorOf` names an
 * event's cursor in the run the record is for (a replay's own cursors differ from the original's).
 */
export function recordRun(
  run: Run,
  cursorOf: (event: RunEvent) => number | undefined = (e) => e.cursor,
): RunRecord {
  const record: RunRecord = { texts: {}, changes: [] };
  const follower = WorldFollower.fits(run.world) ? new WorldFollower(run.world, run.scenario) : undefined;
  const off = run.onEvent((event) => {
    const cursor = cursorOf(event);
    const change = cursor === undefined ? undefined : follower?.after(cursor);
    if (change) record.changes.push(change);
    if (event.kind !== "decision") return;
    // A decision is logged once its wake was dispatched: the agent's latest observation is the one decided on.
    const latest = run.latestObservation(String(event.data.agent));
    if (latest) record.texts[latest.observation_id] = latest.text;
  });
  run.onEnd(() => off());
  return record;
}

/**
 * The record of an ended run, got by replaying its recorded decisions: the run is deterministic,
 * so the replay wakes each agent with the same observation and changes the world the same way,
 * event for event (its simulation events are mapped back onto the run's cursors). A replay that diverges (a crashed run) yields the record up to where it stopped.
 */
export async function replayRecord(
  scenario: ScenarioDefinition,
  seed: number,
  events: readonly RunEvent[],
): Promise<RunRecord> {
  const replay = new Run({
    runId: "record",
    scenario,
    seed,
    replay: decisionsFromEvents(events),
    pace: null,
    retainEvents: 0,
  });
  // Only the simulation's events are the same in both: the k-th of the replay's is the k-th of the run's.
  const simCursors = events.filter((e) => e.sim).map((e) => e.cursor);
  let simSeen = 0;
  const record = recordRun(replay, (event) => (event.sim ? simCursors[simSeen++] : undefined));
  replay.start();
  await replay.whenEnded();
  return record;
}
