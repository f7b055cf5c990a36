/**
 * Requests under way, by their request id. A resend that comes while the first is still running
 * (it waits for the process host, or for its text to be typed) must not run again: it waits for the
 * first one's answer. Once the first has answered, its request id is in the store and a resend
 * finds it there.
 */
export class RequestsInFlight {
  private readonly running = new Map<string, Promise<unknown>>();

  /** The answer of the request under way with this key, if one is. */
  get<T>(key: string): Promise<T> | undefined {
    return this.running.get(key) as Promise<T> | undefined;
  }

  /** Runs `work` as the request with this key; it is known as under way until it settles. */
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const answer = work().finally(() => {
      if (this.running.get(key) === answer) this.running.delete(key);
    });
    this.running.set(key, answer);
    return answer;
  }
}
