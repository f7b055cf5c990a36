/**
 * Asks again for what an open view shows (a job's details, its diff) as the job changes: one request
 * at a time, and at most once per `everyMs`, so a job that changes all the time is asked for at most
 * that often; changes meanwhile are taken by the next answer.
 */
export class ViewRefresher {
  private asking: string | null = null;
  private again = false;

  constructor(
    private readonly everyMs: number,
    private readonly fetch: (id: string) => Promise<unknown>,
    /** Whether the view of `id` is still open. */
    private readonly open: (id: string) => boolean,
  ) {}

  refresh(id: string): void {
    if (this.asking === id) {
      this.again = true;
      return;
    }
    this.asking = id;
    this.again = false;
    void this.fetch(id).finally(() => {
      setTimeout(() => {
        if (this.asking !== id) return;
        this.asking = null;
        if (this.again && this.open(id)) this.refresh(id);
      }, this.everyMs).unref();
    });
  }
}
