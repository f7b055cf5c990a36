/**
 * The events of a run's log, by kind: what each kind's `data` holds. The protocol declares the
 * same union as JSON Schema (src/protocol/events.ts), checked against these at compile time.
 */
import type {
  ObjectiveStatus,
  ObjectiveView,
  Receipt,
  RunScores,
  RunStatus,
  ToolArgs,
  Usage,
  Verdict,
  WakeReason,
} from "./types.js";

/** What a decision event says of every decision. */
interface DecisionBase {
  agent: string;
  observation_id: string;
  /** The deadline passed: the engine recorded this noop itself. */
  expired?: true;
  /** The world refused the action: the sentence saying why. */
  refused?: string;
  /** With `refused`: when the agent wakes again (that wake has no event of its own). */
  wakes_at_ms?: number;
}

/** A decision event's data: the decision's own fields (an action, a sleep or a noop) beside its agent's. */
export type DecisionData =
  | (DecisionBase & { action: string; args: ToolArgs })
  | (DecisionBase & { sleep_ms: number })
  | (DecisionBase & { noop: true });

/** The simulation's own events (hashed, `sim: true`), kind by kind. */
export interface SimEventData {
  run_started: { scenario: string; seed: number };
  run_ended: { status: "completed" | "failed"; reason: string; objectives: ObjectiveView[] };
  wake: { agent: string; observation_id: string; reason: WakeReason };
  decision: DecisionData;
  action_started: {
    agent: string;
    action: string;
    args: ToolArgs;
    until_ms: number;
    cell: string;
  };
  action_ended: { agent: string; action: string; result: "done" | "failed" };
  /** `by`: the agent whose action moved it (null for none); `reason`: why it failed. */
  objective: {
    id: string;
    status: ObjectiveStatus;
    current: number;
    target: number;
    by?: string | null;
    reason?: string;
  };
  message: { from: string; to: string; text: string };
  /** A step a scenario credits to an agent (counted in its scores). */
  credit: { agent: string; what: string };
  arrived: { agent: string; cell: string; place: string | null };
  took: { agent: string; item: string };
  dropped: { agent: string; item: string; cell: string };
  // The bundled scenarios' own events.
  bolted: { agent: string; item: string };
  spoiled: { agent: string; item: string };
  lost: { agent: string; item: string; where: string };
  misdelivered: { agent: string; item: string; at: string | null; address: string };
  wrong_code: { agent: string; code: string; wrong: number };
  gate_opened: { agent: string };
  bridge_opened: { cell: string };
  lever_pulled: { agent: string; bank: string; spillway: number };
  lever_sprang_back: { agent: string; bank: string; spillway: number };
  spillway_opened: { spillway: number };
}

/** The driver's events (`sim: false`, not hashed): they depend on remote timing. */
export interface DriverEventData {
  /** A run's status as it changes; the last one of an ended run carries its scores. */
  status: { status: RunStatus; reason?: string; scores?: RunScores };
  /** A command that was not accepted, once per status and observation. */
  verdict: {
    agent: string;
    command_id: string;
    observation_id: string;
    status: Exclude<Verdict, "accepted">;
    detail: string;
  };
  /** An observation's deadline passed with no answer. */
  expired: { agent: string; observation_id: string };
}

export type SimEventKind = keyof SimEventData;
export type DriverEventKind = keyof DriverEventData;
export type EventData = SimEventData & DriverEventData;
export type EventKind = keyof EventData;

type KeysOf<T> = T extends unknown ? keyof T : never;
/** Every field any kind's data has. */
type DataField = KeysOf<EventData[EventKind]>;
/**
 * A kind's data, with every other kind's fields absent: `kind` narrows an event to its data, and
 * a field read across kinds (`event.data.agent`) is its type or undefined.
 */
type Exact<D> = D extends unknown ? D & { [F in Exclude<DataField, keyof D>]?: never } : never;

interface EventFields {
  /** Counts from 1 with no gaps. */
  cursor: number;
  sim_time_ms: number;
}

/** One simulation event: `kind` tells its `data`. */
export type SimEvent = {
  [K in SimEventKind]: EventFields & {
    sim: true;
    kind: K;
    data: Exact<SimEventData[K]>;
    /** On a remote agent's decision: its command's receipt, outcome settled (not hashed). */
    receipt?: Receipt;
    /** With the receipt, when the command reported usage (not hashed). */
    usage?: Usage;
  };
}[SimEventKind];

/** One driver event: `kind` tells its `data`. */
export type DriverEvent = {
  [K in DriverEventKind]: EventFields & {
    sim: false;
    kind: K;
    data: Exact<DriverEventData[K]>;
    receipt?: never;
    usage?: never;
  };
}[DriverEventKind];

/**
 * One entry of a run's event log. Entries with `sim: true` are the simulation's own history
 * (deterministic, hashed); the rest depend on remote timing and are not hashed.
 */
export type RunEvent = SimEvent | DriverEvent;

/** The event of one kind. */
export type EventOf<K extends EventKind> = Extract<RunEvent, { kind: K }>;
