import type { FastifyInstance } from "fastify";
import { HttpError } from "./http-error.js";

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
        new HttpError(400, "malformed_json", `the body is not valid JSON: ${(error as Error).message}`),
        undefined,
      );
    }
  });
}
