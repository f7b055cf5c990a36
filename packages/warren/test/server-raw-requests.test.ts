import assert from "node:assert/strict";
import { connect } from "node:net";
import { describe, it } from "node:test";
import { ErrorBody, schemaProblems } from "../src/protocol/index.js";
import { serverForSuite } from "./helpers/server.js";

const live = serverForSuite();

/** Sends `request` as raw bytes and reads the whole answer until the server closes. */
function rawExchange(
  url: string,
  request: string,
): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      text += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", body = ""] = text.split("\r\n\r\n");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, headers: head.toLowerCase(), body });
    });
  });
}

function assertErrorAnswer(
  answer: { status: number; headers: string; body: string },
  status: number,
  code: string,
): void {
  assert.equal(answer.status, status, answer.headers);
  assert.match(answer.headers, /x-warren-protocol: warren-agent\/0/);
  const body = JSON.parse(answer.body);
  assert.equal(schemaProblems(ErrorBody, body), undefined);
  assert.equal(body.error, code);
}

describe("requests the framework answers before routing", () => {
  it("answers an unknown method with 400 bad_request in the protocol's shape", async () => {
    const answer = await rawExchange(live.url, "FOO /v1/runs HTTP/1.1\r\nHost: x\r\n\r\n");
    assertErrorAnswer(answer, 400, "bad_request");
    assert.match(JSON.parse(answer.body).detail, /method/);
  });

  it("answers oversized headers with 431 headers_too_large", async () => {
    const big = "x".repeat(20_000);
    const answer = await rawExchange(live.url, `GET /v1/runs HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`);
    assertErrorAnswer(answer, 431, "headers_too_large");
  });

  it("answers CONNECT with 400 rather than closing in silence", async () => {
    const answer = await rawExchange(
      live.url,
      "CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n",
    );
    assertErrorAnswer(answer, 400, "bad_request");
    assert.match(JSON.parse(answer.body).detail, /not a proxy/);
  });

  it("answers a method it knows but no route takes with 404 in the same shape", async () => {
    const answer = await rawExchange(
      live.url,
      `DELETE /v1/runs HTTP/1.1\r\nHost: ${new URL(live.url).host}\r\nConnection: close\r\n\r\n`,
    );
    assertErrorAnswer(answer, 404, "not_found");
  });
});
