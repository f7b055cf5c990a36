import type { TrajectoryStep } from "../protocol/index.js";

/**
 * How a replayed step differs from the recorded one, in words, checked in the order a run
 * diverges: a different decision comes next, the agent sees something else, the world answers its
 * command otherwise, or the log differs (which, alone, means the command on the line is not the
 * one that was played). Empty when they agree.
 */
export function stepDifferences(recorded: TrajectoryStep, replayed: TrajectoryStep): string[] {
  if (recorded.observation_id !== replayed.observation_id) {
    return [
      `the replay's next decision is ${replayed.observation_id} at t=${replayed.sim_time_ms / 1000}s, not ${recorded.observation_id} at t=${recorded.sim_time_ms / 1000}s`,
    ];
  }
  const differences: string[] = [];
  // The structured observation first: the text and affordances follow from it.
  const seen = (["structured", "affordances", "text"] as const)
    .map((part) =>
      firstDifference(recorded.observation[part], replayed.observation[part], `observation.${part}`),
    )
    .find((difference) => difference !== undefined);
  if (seen) differences.push(`what the agent saw differs: ${seen}`);
  const [was, is] = [outcomeWords(recorded), outcomeWords(replayed)];
  if (was !== is) differences.push(`the world answered otherwise: recorded ${was}, replayed ${is}`);
  if (recorded.log_hash !== replayed.log_hash) {
    const alone = differences.length === 0 ? ": the command on this line is not the one played" : "";
    differences.push(
      `the log hash differs (recorded ${recorded.log_hash}, replayed ${replayed.log_hash})${alone}`,
    );
  }
  return differences;
}

/** The first place two JSON values differ, as "path: recorded X, replayed Y"; undefined if none. */
export function firstDifference(recorded: unknown, replayed: unknown, path: string): string | undefined {
  const bothObjects =
    recorded !== null && replayed !== null && typeof recorded === "object" && typeof replayed === "object";
  if (bothObjects && Array.isArray(recorded) === Array.isArray(replayed)) {
    const a = recorded as Record<string, unknown>;
    const b = replayed as Record<string, unknown>;
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const inner = firstDifference(a[key], b[key], Array.isArray(a) ? `${path}[${key}]` : `${path}.${key}`);
      if (inner) return inner;
    }
    return undefined;
  }
  if (JSON.stringify(recorded) === JSON.stringify(replayed)) return undefined;
  return `${path}: recorded ${shown(recorded)}, replayed ${shown(replayed)}`;
}

function outcomeWords({ outcome }: TrajectoryStep): string {
  return outcome.reason ? `${outcome.status} (${outcome.reason})` : outcome.status;
}

/** A value as JSON, cut short: an observation's text runs to many lines. */
function shown(value: unknown): string {
  const text = value === undefined ? "nothing" : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
