import { timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { HttpError } from "./http-error.js";
import { markAccessBearer } from "./lease-token.js";

/** The cookie a browser holds the token in, once it has opened a viewer page with ?token=. */
export const TOKEN_COOKIE = "warren_token";

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function bearerOf(request: FastifyRequest): string | undefined {
  const auth = request.headers.authorization;
  const match = auth === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(auth);
  return match ? match[1] : undefined;
}

function cookieOf(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === TOKEN_COOKIE) return decodeURIComponent(value.join("="));
  }
  return undefined;
}

/**
 * The server's optional access token (`warren serve --token T`, or WARREN_TOKEN): creating,
 * deleting and claiming need it, as `Authorization: Bearer T`, or from a browser the cookie the
 * viewer's pages set when first opened with `?token=T`. Without a token every request may.
 */
export class AccessToken {
  constructor(private readonly token: string | undefined) {}

  get enabled(): boolean {
    return this.token !== undefined;
  }

  /** 401 without the token, 403 with another; nothing when the server has none. */
  require(request: FastifyRequest): void {
    if (this.token === undefined) return;
    const presented = bearerOf(request) ?? cookieOf(request);
    if (presented === undefined) {
      throw new HttpError(
        "token_required",
        "this server needs its access token here: send Authorization: Bearer <token> (warren --token, WARREN_TOKEN), or open the viewer once with ?token=<token>",
      );
    }
    if (!same(presented, this.token)) {
      throw new HttpError("token_invalid", "that is not this server's access token");
    }
  }

  /** True when the request's bearer is this token, not a lease (leases then go in ?lease=). */
  isAccessBearer(request: FastifyRequest): boolean {
    if (this.token === undefined) return false;
    const bearer = bearerOf(request);
    return bearer !== undefined && same(bearer, this.token);
  }

  /**
   * Marks a request whose bearer is the token (so it is not taken for a lease), and trades a viewer
   * page opened with `?token=T` (the URL `warren serve` prints): the token becomes an
   * HttpOnly, SameSite=Strict cookie and the page is reloaded without it in its address. True when
   * it answered the request (that redirect); throws 403 for a wrong `?token=`.
   */
  screen(request: FastifyRequest, reply: FastifyReply): boolean {
    if (this.isAccessBearer(request)) markAccessBearer(request);
    const query = request.query as { token?: unknown } | undefined;
    if (request.method !== "GET" || request.url.startsWith("/v1") || typeof query?.token !== "string") {
      return false;
    }
    if (this.token === undefined || !same(query.token, this.token)) {
      throw new HttpError("token_invalid", "that is not this server's access token");
    }
    const url = new URL(request.url, "http://server");
    url.searchParams.delete("token");
    void reply
      .code(303)
      .header(
        "set-cookie",
        `${TOKEN_COOKIE}=${encodeURIComponent(this.token)}; Path=/; HttpOnly; SameSite=Strict`,
      )
      .header("location", url.pathname + url.search)
      .send();
    return true;
  }
}
