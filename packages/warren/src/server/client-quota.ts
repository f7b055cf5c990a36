import type { Run } from "../engine/index.js";
import { HttpError } from "./http-error.js";

/**
 * Live runs per client (its remote address), so that one client cannot take every live slot of a
 * server: its creations past the limit are refused with 429 until one of its runs ends.
 */
export class ClientQuota {
  private readonly live = new Map<string, number>();

  constructor(private readonly maxPerClient: number) {}

  /** Throws 429 when the client already has its limit of live runs. */
  admit(client: string): void {
    const held = this.live.get(client) ?? 0;
    if (held < this.maxPerClient) return;
    throw new HttpError(
      "too_many_client_runs",
      `${client} already has ${held} runs that have not ended (at most ${this.maxPerClient} a client); end one (DELETE /v1/runs/{run}) or wait for one to end`,
    );
  }

  /** Counts the run against the client until it ends. */
  hold(client: string, run: Run): void {
    if (run.isEnded) return;
    this.live.set(client, (this.live.get(client) ?? 0) + 1);
    run.onEnd(() => {
      const left = (this.live.get(client) ?? 1) - 1;
      if (left > 0) this.live.set(client, left);
      else this.live.delete(client);
    });
  }
}
