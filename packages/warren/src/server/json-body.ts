import type { FastifyInstance, FastifyRequest } from "fastify";
import { HttpError } from "./http-error.js";

/**
 * Routes that create or end runs need `Content-Type: application/json` even without a body: no
 * page of another site can send it without the server's consent (a no-cors form or fetch sends
 * text/plain, a form encoding or none), so such a page cannot make or delete a run.
 */
export function requireJsonContent(request: FastifyRequest): void {
  const type = request.headers["content-type"];
  if (type !== undefined && /^application\/json\s*(;|$)/i.test(type)) return;
  throw new HttpError(
    "unsupported_media_type",
    `${request.method} ${request.url.split("?")[0]} needs Content-Type: application/json, even with no body (got ${type === undefined ? "none" : JSON.stringify(type)})`,
  );
}

/** JSON bodies parsed with the parser's own reason in the 400, so a client learns what is wrong. */
export function installJsonParser(app: FastifyInstance): void {
  // JSON only: any other content type is 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, text, done) => {
    // Many HTTP libraries send the header on every POST: an empty body is no body.
    if (text === "") {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text as string));
    } catch (error) {
      done(
        new HttpError("malformed_json", `the body is not valid JSON: ${(error as Error).message}`),
        undefined,
      );
    }
  });
}
