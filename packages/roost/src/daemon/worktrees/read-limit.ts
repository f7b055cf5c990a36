/**
 * At most `limit` worktree reads at once, across every repository: reads take no git lock (a copy
 * of the index, plumbing only), so they do not wait in a repository's queue behind a dispatch, but
 * fifty worktrees changing at once must not run fifty gits at once either.
 */
export class ReadLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}
