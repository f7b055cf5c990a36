/** Sim milliseconds as seconds, the way the engine's texts write them: "t=3.2s". */
export function seconds(ms: number): string {
  return `t=${Math.round(ms) / 1000}s`;
}
