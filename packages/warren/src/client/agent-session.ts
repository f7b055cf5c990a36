import { randomUUID } from "node:crypto";
import type {
  Briefing,
  ClaimResponse,
  CommandPayload,
  Envelope,
  Receipt,
  ReleaseResponse,
  Usage,
} from "../protocol/index.js";
import { backoffMs, sleep } from "./backoff.js";
import { type HttpTransport, isTransient, WarrenHttpError } from "./http.js";

export interface AgentSessionOptions {
  /** A lease from an earlier claim to resume (e.g. saved before a restart). */
  lease?: string;
  /** Shown as the agent's holder in GET /v1/runs/{run}. */
  holder?: string;
  /** Attempts for one request through network failures and 5xx (default 8). */
  attempts?: number;
}

/** Thrown when the run is over: its terminal status is in `status`. */
export class RunEndedError extends Error {
  constructor(
    readonly status: string,
    detail: string,
  ) {
    super(detail);
    this.name = "RunEndedError";
  }
}

/**
 * One remote agent's side of warren-agent/0: its lease (resumed after a reconnect, reclaimed when
 * it lapsed), its briefing cached by revision, observations past the last one answered, and
 * commands retried under their command_id until the server has judged them.
 */
export class AgentSession {
  lease: string | undefined;
  /** seq of the last observation this session answered; polls ask for the ones after it. */
  answeredSeq = -1;
  private cachedBriefing: Briefing | undefined;
  private readonly attempts: number;
  private readonly path: string;

  constructor(
    private readonly http: HttpTransport,
    readonly runId: string,
    readonly agentId: string,
    private readonly options: AgentSessionOptions = {},
  ) {
    this.lease = options.lease;
    this.attempts = options.attempts ?? 8;
    this.path = `/v1/runs/${encodeURIComponent(runId)}/agents/${encodeURIComponent(agentId)}`;
  }

  /** Claims the agent, resuming the held lease when it is still live. */
  async claim(): Promise<ClaimResponse> {
    const response = await this.retrying(() =>
      this.http.request<ClaimResponse>("POST", `${this.path}/claim`, {
        query: { lease: this.lease, holder: this.options.holder },
      }),
    );
    const claim = response.body!;
    this.lease = claim.lease;
    return claim;
  }

  /** The briefing, fetched once per revision. */
  async briefing(revision?: number): Promise<Briefing> {
    if (this.cachedBriefing && (revision === undefined || this.cachedBriefing.revision === revision)) {
      return this.cachedBriefing;
    }
    const response = await this.authed(() =>
      this.http.request<Briefing>("GET", `${this.path}/briefing`, this.q()),
    );
    this.cachedBriefing = response.body!;
    return this.cachedBriefing;
  }

  /**
   * The next observation after the last one answered (the outstanding one again after a
   * reconnect), waiting up to waitS seconds; undefined if none came. Throws RunEndedError at the end.
   */
  async observe(waitS = 25): Promise<Envelope | undefined> {
    const response = await this.authed(() =>
      this.http.request<Envelope>("GET", `${this.path}/observations`, {
        query: { lease: this.lease, after: this.answeredSeq, wait: waitS },
      }),
    );
    return response.status === 204 ? undefined : response.body;
  }

  /**
   * Answers an envelope. The command_id is minted once and reused for every retry, so a retry
   * after a lost response is a duplicate of the accepted command, never a second command.
   * `usage` is what the agent spent since its last accepted command (counted if this one is accepted).
   */
  async submit(
    envelope: Envelope,
    payload: CommandPayload,
    commandId: string = randomUUID(),
    usage?: Usage,
  ): Promise<Receipt> {
    const body = {
      command_id: commandId,
      observation_id: envelope.observation_id,
      ...payload,
      ...(usage ? { usage } : {}),
    };
    const response = await this.authed(() =>
      this.http.request<Receipt>("POST", `${this.path}/commands`, { ...this.q(), body }),
    );
    const receipt = response.body!;
    if (receipt.status !== "rejected") this.answeredSeq = Math.max(this.answeredSeq, envelope.seq);
    return receipt;
  }

  /** An accepted command's receipt with its current outcome. */
  async receipt(commandId: string): Promise<Receipt> {
    const response = await this.authed(() =>
      this.http.request<Receipt>("GET", `${this.path}/commands/${encodeURIComponent(commandId)}`, this.q()),
    );
    return response.body!;
  }

  async release(): Promise<ReleaseResponse> {
    const response = await this.authed(() =>
      this.http.request<ReleaseResponse>("POST", `${this.path}/release`, this.q()),
    );
    this.lease = undefined;
    return response.body!;
  }

  private q(): { query: { lease: string | undefined } } {
    return { query: { lease: this.lease } };
  }

  /**
   * A request under the lease: claims first if there is none; when the lease lapsed or was taken
   * away (403), claims again (a fresh token) and repeats the request once.
   */
  private async authed<T>(send: () => Promise<T>): Promise<T> {
    if (this.lease === undefined) await this.claim();
    try {
      return await this.retrying(send);
    } catch (error) {
      if (!(error instanceof WarrenHttpError) || error.status !== 403) throw error;
      this.lease = undefined;
      await this.claim();
      return this.retrying(send);
    }
  }

  /** Repeats a request through network failures and 5xx; 410 becomes RunEndedError. */
  private async retrying<T>(send: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await send();
      } catch (error) {
        if (error instanceof WarrenHttpError && error.status === 410) {
          throw new RunEndedError(error.body.status ?? "ended", error.body.detail);
        }
        if (!isTransient(error) || attempt + 1 >= this.attempts) throw error;
        await sleep(backoffMs(attempt));
      }
    }
  }
}
