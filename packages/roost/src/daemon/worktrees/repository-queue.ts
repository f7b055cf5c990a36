/**
 * One git operation at a time per repository: git's `index.lock` (and `worktree add` racing on the
 * shared `.git`) must never fail a dispatch because two jobs reached the same repository at once.
 */
export class RepositoryQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `work` once every earlier one on `repository` has settled; answers its result. */
  run<T>(repository: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(repository) ?? Promise.resolve();
    const mine = before.catch(() => {}).then(work);
    const tail = mine.catch(() => {});
    this.tails.set(repository, tail);
    void tail.then(() => {
      if (this.tails.get(repository) === tail) this.tails.delete(repository);
    });
    return mine;
  }
}
