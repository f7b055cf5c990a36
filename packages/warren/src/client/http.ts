import { type ErrorBody, PROTOCOL_HEADER, PROTOCOL_VERSION } from "../protocol/index.js";

/** A warren-agent/0 error response: its HTTP status and the `{error, detail}` body. */
export class WarrenHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(`${status} ${body.error}: ${body.detail}`);
    this.name = "WarrenHttpError";
  }

  get code(): string {
    return this.body.error;
  }
}

export interface HttpResponse<T> {
  status: number;
  headers: Headers;
  /** undefined for 204 and 304. */
  body: T | undefined;
}

export type Query = Record<string, string | number | undefined>;

/** Failures worth retrying as they are: the network, or the server being briefly unable. */
export function isTransient(error: unknown): boolean {
  if (error instanceof WarrenHttpError) return error.status >= 500;
  return error instanceof TypeError || (error as { name?: string })?.name === "AbortError";
}

export class HttpTransport {
  readonly baseUrl: string;

  /** `token`: the server's access token, sent on every request as `Authorization: Bearer`. */
  constructor(
    baseUrl: string,
    private readonly token?: string,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
  }

  url(path: string, query: Query = {}): string {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  }

  /** One request; any status other than 2xx/304 throws WarrenHttpError. */
  async request<T>(
    method: string,
    path: string,
    options: { query?: Query; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<HttpResponse<T>> {
    const headers: Record<string, string> = { [PROTOCOL_HEADER]: PROTOCOL_VERSION, ...options.headers };
    // Always JSON: routes that create or end runs need the type even with no body.
    headers["content-type"] = "application/json";
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`;
    const response = await fetch(this.url(path, options.query), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      // Something in between (a proxy's error page) answered: keep its status, report its text.
      throw new WarrenHttpError(response.status >= 400 ? response.status : 502, {
        error: "internal",
        detail: `the response is not JSON: ${text.slice(0, 200)}`,
      });
    }
    if (response.status >= 400) {
      const body =
        parsed && typeof parsed === "object" && "error" in parsed
          ? (parsed as ErrorBody)
          : ({ error: "internal", detail: text || response.statusText } as ErrorBody);
      throw new WarrenHttpError(response.status, body);
    }
    return { status: response.status, headers: response.headers, body: parsed as T | undefined };
  }
}
