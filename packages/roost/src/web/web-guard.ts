import type { IncomingMessage } from "node:http";
import { WEB_COOKIE } from "../protocol/web.js";
import { isWebToken } from "./web-token.js";

/** Why a request is refused before any route sees it, with its status; null lets it through. */
export interface Refusal {
  status: 401 | 403;
  reason: string;
}

/** The names a browser may use for the server: loopback ones, and the address it was told to listen on. */
export function allowedHosts(host: string, port: number): Set<string> {
  const names = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  names.add(`${host.includes(":") ? `[${host}]` : host}:${port}`);
  return names;
}

/** The value of one cookie in a `Cookie` header. */
export function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at !== -1 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

/**
 * The checks every request and the push channel pass. `Host` first: a page of another site that
 * rebinds its name to 127.0.0.1 sends its own name, never ours. Then `Origin`, which a browser sets
 * on a WebSocket and on cross-site requests: only our own page's. Then the cookie the token was
 * traded for; `upgrade` (the push channel) needs an `Origin`, as every browser sends one there.
 */
export function refusal(
  request: IncomingMessage,
  token: string,
  hosts: Set<string>,
  upgrade: boolean,
): Refusal | null {
  const host = request.headers.host ?? "";
  if (!hosts.has(host)) return { status: 403, reason: "unknown host name" };
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${host}`) return { status: 403, reason: "foreign origin" };
  if (upgrade && origin === undefined) return { status: 403, reason: "no origin" };
  if (!isWebToken(token, cookieValue(request.headers.cookie, WEB_COOKIE)))
    return { status: 401, reason: "open the address roost web printed (its token)" };
  return null;
}
