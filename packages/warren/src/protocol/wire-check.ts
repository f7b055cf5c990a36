/**
 * The engine's plain types and the protocol's schemas of them, checked against each other: each
 * must be assignable to the other, or the build fails, so the two declarations cannot drift.
 */
import type * as engine from "../engine/index.js";
import type { RunEventOfSchemas } from "./events.js";
import type { Envelope, WakeReason } from "./observation.js";

/** true when A and B are each assignable to the other; a type error at the check otherwise. */
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const checks: {
  wakeReason: Mutual<WakeReason, engine.WakeReason>;
  envelope: Mutual<Envelope, engine.Envelope>;
  runEvent: Mutual<RunEventOfSchemas, engine.RunEvent>;
} = { wakeReason: true, envelope: true, runEvent: true };

export type WireChecked = typeof checks;
