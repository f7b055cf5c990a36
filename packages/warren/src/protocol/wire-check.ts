/**
 * The engine's plain types and the protocol's schemas of them, checked against each other: each
 * must be assignable to the other, or the build fails here naming the one that drifted.
 */
import type * as engine from "../engine/index.js";
import type { RunEventOfSchemas } from "./events.js";
import type { Envelope, WakeReason } from "./observation.js";

/** true when A and B are each assignable to the other; otherwise a sentence the compiler shows. */
type Mutual<A, B, Name extends string> = [A] extends [B]
  ? [B] extends [A]
    ? true
    : `${Name}: the engine's type has what the protocol's schema does not`
  : `${Name}: the protocol's schema has what the engine's type does not`;

const checks: {
  wakeReason: Mutual<WakeReason, engine.WakeReason, "WakeReason">;
  envelope: Mutual<Envelope, engine.Envelope, "Envelope">;
  runEvent: Mutual<RunEventOfSchemas, engine.RunEvent, "RunEvent">;
} = { wakeReason: true, envelope: true, runEvent: true };

export type WireChecked = typeof checks;
