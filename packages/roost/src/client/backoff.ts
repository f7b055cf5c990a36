export interface BackoffOptions {
  /** The first wait after a failed connection. */
  initialMs?: number;
  /** The longest wait. */
  maxMs?: number;
}

const DEFAULT_BACKOFF = { initialMs: 100, maxMs: 5000 } as const;

/**
 * How long to wait before reconnection attempt `attempt` (0 first): doubling from `initialMs` up to
 * `maxMs`, with the upper half jittered so that many agents losing one daemon do not come back in
 * step.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}, random = Math.random): number {
  const initial = options.initialMs ?? DEFAULT_BACKOFF.initialMs;
  const max = options.maxMs ?? DEFAULT_BACKOFF.maxMs;
  const ceiling = Math.min(max, initial * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
