import type { CreateRunRequest, RunList, RunView, ScenarioInfo, ScenarioList } from "../protocol/index.js";
import { AgentSession, type AgentSessionOptions } from "./agent-session.js";
import { HttpTransport } from "./http.js";
import { type SpectateOptions, spectate } from "./spectate.js";

export interface CreateRunOptions extends CreateRunRequest {
  seed?: number;
}

export interface WarrenClientOptions {
  /**
   * The server's access token (`warren serve --token T`), which creating, deleting and claiming
   * need when the server has one; sent as `Authorization: Bearer`, leases then in `?lease=`.
   */
  token?: string;
}

/** A warren-agent/0 server, seen from outside: runs, scenarios, agents and spectating. */
export class WarrenClient {
  private readonly http: HttpTransport;

  constructor(
    readonly baseUrl: string,
    options: WarrenClientOptions = {},
  ) {
    this.http = new HttpTransport(baseUrl, options.token);
  }

  async createRun(scenario: string, options: CreateRunOptions = {}): Promise<RunView> {
    const { seed, ...body } = options;
    const response = await this.http.request<RunView>("POST", "/v1/runs", {
      query: { scenario, seed },
      body,
    });
    return response.body!;
  }

  /** Ends the run now (status deleted) if it is going and lets it go to its summary, which comes back. */
  async deleteRun(runId: string): Promise<RunView> {
    return (await this.http.request<RunView>("DELETE", `/v1/runs/${encodeURIComponent(runId)}`)).body!;
  }

  async runs(): Promise<RunView[]> {
    return (await this.http.request<RunList>("GET", "/v1/runs")).body!.runs;
  }

  async run(runId: string): Promise<RunView> {
    return (await this.http.request<RunView>("GET", `/v1/runs/${encodeURIComponent(runId)}`)).body!;
  }

  async scenarios(): Promise<ScenarioInfo[]> {
    return (await this.http.request<ScenarioList>("GET", "/v1/scenarios")).body!.scenarios;
  }

  /** A session for one agent; nothing is sent until it claims. */
  agent(runId: string, agentId: string, options: AgentSessionOptions = {}): AgentSession {
    return new AgentSession(this.http, runId, agentId, options);
  }

  spectate(runId: string, options: SpectateOptions): Promise<number> {
    return spectate(this.baseUrl, runId, options);
  }
}
