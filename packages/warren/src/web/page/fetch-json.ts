/**
 * The page's requests to its server: JSON in and out, and an answer that is not ok thrown as its
 * error code and detail (the server's error shape).
 */
import type { ErrorBody } from "../../protocol/errors.js";

export async function fetchJson<T>(path: string, method = "GET", body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as T & Partial<ErrorBody>;
  if (!response.ok) throw new Error(`${json.error ?? response.status}: ${json.detail ?? path}`);
  return json;
}
