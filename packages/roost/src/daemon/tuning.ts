/**
 * The daemon's tuning knobs, read from the environment once, here (tests and slow machines set
 * them): how long a terminal agent's screen is given to settle and to show what was typed, how
 * long a process host with nothing to run stays, and how long a foreground pi's claims outlive its
 * connection. One rule for each: a finite number of milliseconds, 0 or more; unset or anything else
 * is the default.
 */

/** `name`'s milliseconds, or `fallback`. */
export function millisFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const ms = Number(raw);
  return Number.isFinite(ms) && ms >= 0 ? ms : fallback;
}

export interface Tuning {
  /** How long a screen is given to show a typed text or a key's effect. */
  readBackMs: number;
  /** No output for this long and a terminal agent is idle. */
  terminalQuietMs: number;
  /** A program roost knows nothing of takes text after its first output and this much quiet. */
  readyQuietMs: number;
  /** ... or after this long when it prints nothing at all. */
  readySilentMs: number;
  /** A process host with no job and no connection ends after this long. */
  hostIdleMs: number;
  /** How long a foreground pi's claims outlive its connection (it may be re-opened on the session). */
  foregroundClaimGraceMs: number;
}

export function tuningFrom(env: NodeJS.ProcessEnv): Tuning {
  return {
    readBackMs: millisFrom(env, "ROOST_READ_BACK_MS", 3000),
    terminalQuietMs: millisFrom(env, "ROOST_TERMINAL_QUIET_MS", 1000),
    readyQuietMs: millisFrom(env, "ROOST_TERMINAL_READY_QUIET_MS", 300),
    readySilentMs: millisFrom(env, "ROOST_TERMINAL_SILENT_MS", 10_000),
    hostIdleMs: millisFrom(env, "ROOST_HOST_IDLE_MS", 30_000),
    foregroundClaimGraceMs: millisFrom(env, "PI_ROOST_FG_CLAIM_GRACE_MS", 5000),
  };
}

/** The knobs as this process was started with them. */
export const TUNING: Tuning = tuningFrom(process.env);
