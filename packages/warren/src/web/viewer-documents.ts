/**
 * The viewer's own documents, declared once: what its routes (viewer-routes.ts) and its HTML file
 * (pages.ts) give, and what its page (page/) reads. Types only, of the engine's types alone, so
 * the page's bundle takes nothing of the server.
 */
import type { RunEvent } from "../engine/events.js";
import type { Controller, Lane, ObjectiveView, RunTime } from "../engine/types.js";

/** Where an item lies in a scene: on a cell, carried by an agent, or used up. */
export type SceneItemLocation =
  | { at: "cell"; cell: string }
  | { at: "agent"; agent: string }
  | { at: "gone" };

/**
 * A run's world as it stands before its first event (`GET /runs/{run}/scene`): what the viewer
 * draws, then moves on event by event. The same scenario and seed always build the same scene, so
 * a replay or an HTML file needs only the scene and the run's events.
 */
export interface Scene {
  format: "warren-scene/1";
  run_id: string;
  scenario: string;
  title: string;
  premise: string;
  seed: number;
  ms_per_cell: number;
  sight_radius: number;
  time_limit_ms: number;
  /** Each space's rows, north first: "#" a blocked cell, "." an open one. */
  spaces: { id: string; width: number; height: number; rows: string[] }[];
  places: {
    id: string;
    name: string;
    cell: string;
    description: string;
    features: Record<string, unknown>;
  }[];
  items: { id: string; name: string; kind: string; location: SceneItemLocation }[];
  agents: { id: string; name: string; role: string; cell: string; controller: Controller }[];
  objectives: ObjectiveView[];
  /** Every tool's lane and whether it is durative, by name: what keeps a lane busy. */
  tools: Record<string, { lane: Lane; durative: boolean }>;
}

/**
 * What the event log does not say outright: where every item is and what each place's features
 * are. A scenario may use an item up, or change a place, without an event; the viewer sets its
 * model to this truth (live from `GET /runs/{run}/world`, in a replay at the cursor it changed).
 */
export interface WorldState {
  items: Record<string, SceneItemLocation>;
  features: Record<string, Record<string, unknown>>;
}

/** A change of the world state after the event at `cursor`: only what changed. */
export interface WorldChange {
  cursor: number;
  items?: Record<string, SceneItemLocation>;
  features?: Record<string, Record<string, unknown>>;
}

/** `GET /runs/{run}/world`: the world now, with the cursor it stands at. */
export interface WorldAnswer extends WorldState {
  cursor: number;
}

/** `GET /runs/{run}/clock`: the run's own time, with the cursor it stands at and its pace. */
export interface ClockAnswer extends RunTime {
  cursor: number;
  pace: number | null;
}

/** `GET /runs/{run}/agents/{agent}/observation`: the text of the agent's latest wake, if any. */
export interface ObservationAnswer {
  observation_id: string | null;
  text: string;
}

/**
 * What a replay of a run needs beside its scene and events: the text of each observation, by
 * observation id, and the world's changes by cursor. `changes` stays empty for a world too large
 * to follow event by event.
 */
export interface RunRecord {
  texts: Record<string, string>;
  changes: WorldChange[];
}

/** `GET /runs/{run}/record`: an ended run's record, or an empty one with a note saying why. */
export interface RecordAnswer extends RunRecord {
  note?: string;
}

/** What the page's script is told about itself (`window.WARREN_PAGE`). */
export type PageConfig =
  | { page: "runs" }
  | { page: "run"; run_id: string }
  | { page: "file"; scene: Scene; events: RunEvent[]; record: RunRecord };
