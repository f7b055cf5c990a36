/** Latency figures in milliseconds. */
export interface Figures {
  p50: number;
  p99: number;
  n: number;
}

export function figures(samplesMs: number[]): Figures {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { p50: at(0.5), p99: at(0.99), n: sorted.length };
}

export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

export const fmt = (ms: number) => ms.toFixed(3);
