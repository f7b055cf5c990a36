import type { AgentSummary, RunEvent, ScenarioDefinition } from "../engine/index.js";
import type { RunStatus, RunView } from "../protocol/index.js";
import type { RunStore } from "./run-store.js";

/**
 * What spectators and the viewer read of a run: its events and who plays it. A live run (or an
 * ended one the server still holds whole) is one; so is a run read back from the store.
 */
export interface RunLog {
  readonly id: string;
  readonly scenario: ScenarioDefinition;
  readonly seed: number;
  readonly status: RunStatus;
  readonly isEnded: boolean;
  readonly eventCursor: number;
  readonly oldestRetainedEvent: number;
  agents(): AgentSummary[];
  events(since?: number, limit?: number): RunEvent[];
  onEvent(listener: (event: RunEvent) => void): () => void;
}

/** Events read from the store per query while a spectator catches up one event at a time. */
const READ_AHEAD = 1000;

/** An ended run as the store holds it: its final view and its event log, read from disk as asked. */
export class StoredRun implements RunLog {
  readonly isEnded = true;
  readonly oldestRetainedEvent = 1;
  /** The events last read, so a reader going one by one does not query for each. */
  private window: RunEvent[] = [];

  constructor(
    private readonly store: RunStore,
    private readonly view: RunView,
    readonly scenario: ScenarioDefinition,
  ) {}

  get id(): string {
    return this.view.run_id;
  }

  get seed(): number {
    return this.view.seed;
  }

  get status(): RunStatus {
    return this.view.status;
  }

  get eventCursor(): number {
    return this.view.event_cursor;
  }

  agents(): AgentSummary[] {
    return this.view.agents.map(({ agent_id, name, role, controller }) => ({
      agent_id,
      name,
      role,
      controller,
    }));
  }

  events(since = 0, limit = Number.POSITIVE_INFINITY): RunEvent[] {
    const first = this.window[0]?.cursor;
    if (first !== undefined && since + 1 >= first && since + limit <= this.window.at(-1)!.cursor) {
      return this.window.slice(since + 1 - first, since + 1 - first + limit);
    }
    if (limit > READ_AHEAD) return this.store.events(this.id, since, limit);
    this.window = this.store.events(this.id, since, READ_AHEAD);
    return this.window.slice(0, limit);
  }

  /** Nothing more happens to an ended run. */
  onEvent(): () => void {
    return () => {};
  }
}
