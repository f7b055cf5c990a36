/** Counts events per key over a sliding window (messages a minute, spawns a minute, duplicates). */
export class RateWindow {
  private readonly seen = new Map<string, number[]>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Events for `key` within the window now. */
  count(key: string): number {
    return this.recent(key).length;
  }

  record(key: string): void {
    const list = this.recent(key);
    list.push(this.now());
    this.seen.set(key, list);
  }

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    const list = (this.seen.get(key) ?? []).filter((at) => at > since);
    if (list.length) this.seen.set(key, list);
    else this.seen.delete(key);
    return list;
  }
}
