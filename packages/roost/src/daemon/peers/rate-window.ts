import { createHash } from "node:crypto";

/**
 * Counts events per key over a sliding window (messages a minute per sender, spawns a minute per
 * tree, a text to a session for duplicates), in bounded memory whatever the keys: a key is kept as
 * its digest (a message's text is not held for its window), an entry goes once its window has
 * passed (looked at on every record of any key, and by a sweep every window, not only when the
 * same key comes again), and at most `maxKeys` are kept, the oldest going first.
 */
export class RateWindow {
  /** By digest, in the order of their last event: the ones whose window passed are at the front. */
  private readonly seen = new Map<string, number[]>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number,
    private readonly maxKeys: number,
  ) {
    setInterval(() => this.expire(), windowMs).unref();
  }

  /** Events for `key` within the window now. */
  count(key: string): number {
    const since = this.now() - this.windowMs;
    return (this.seen.get(digest(key)) ?? []).filter((at) => at > since).length;
  }

  record(key: string): void {
    this.expire();
    const id = digest(key);
    const now = this.now();
    const list = (this.seen.get(id) ?? []).filter((at) => at > now - this.windowMs);
    list.push(now);
    this.seen.delete(id);
    this.seen.set(id, list);
    for (const oldest of this.seen.keys()) {
      if (this.seen.size <= this.maxKeys) break;
      this.seen.delete(oldest);
    }
  }

  /** Keys kept now (for the tests of its bound). */
  get size(): number {
    return this.seen.size;
  }

  private expire(): void {
    const since = this.now() - this.windowMs;
    for (const [id, list] of this.seen) {
      if (list[list.length - 1]! > since) break;
      this.seen.delete(id);
    }
  }
}

function digest(key: string): string {
  return createHash("sha256").update(key).digest("base64");
}
