import { decisionsFromEvents, Run } from "../engine/run.js";
import type { ScenarioDefinition } from "../engine/scenario.js";
import type { RunEvent } from "../engine/types.js";

/**
 * Records each agent's observation texts, by observation id, as the run goes: the object returned
 * fills up until the run ends. A decision is logged once its wake was dispatched, so at that moment
 * the agent's latest observation is the one decided on.
 */
export function recordObservationTexts(run: Run): Record<string, string> {
  const texts: Record<string, string> = {};
  const off = run.onEvent((event) => {
    if (event.kind !== "decision") return;
    const latest = run.latestObservation(String(event.data.agent));
    if (latest) texts[latest.observation_id] = latest.text;
  });
  run.onEnd(() => off());
  return texts;
}

/**
 * The text of every observation of an ended run, got by replaying its recorded decisions (the run
 * is deterministic, so the replay wakes each agent with the same observation). A replay that
 * diverges (a crashed run) yields the texts up to where it stopped.
 */
export async function observationTexts(
  scenario: ScenarioDefinition,
  seed: number,
  events: readonly RunEvent[],
): Promise<Record<string, string>> {
  const replay = new Run({
    runId: "texts",
    scenario,
    seed,
    replay: decisionsFromEvents(events),
    pace: null,
    retainEvents: 0,
  });
  const texts = recordObservationTexts(replay);
  replay.start();
  await replay.whenEnded();
  return texts;
}
