import assert from "node:assert/strict";
import { test } from "node:test";
import { catalogOf, startServer } from "../src/server/index.js";
import { loudYard } from "./helpers/loud-yard.js";
import { call, runWithClaims } from "./helpers/server.js";

test("checkResponses records an answer that does not match its declaration", async () => {
  // A scenario whose tool offers a choice the protocol does not allow (a boolean).
  const shout = loudYard.tools[0]!;
  const offKey = {
    ...loudYard,
    name: "off_key",
    tools: [
      {
        ...shout,
        offer: () => ({ params: { text: { choices: [true as unknown as string] } }, suggestions: [] }),
      },
    ],
  };
  const server = await startServer(
    { host: "127.0.0.1", port: 0 },
    { checkResponses: true, scenarios: catalogOf([offKey]) },
  );
  try {
    const { runId, leases } = await runWithClaims(server.url, "off_key", ["shouter-1"]);
    assert.deepEqual(server.responseProblems, []);
    const polled = await call(server.url, "GET", `/v1/runs/${runId}/agents/shouter-1/observations`, {
      query: { lease: leases["shouter-1"], wait: 5 },
    });
    assert.equal(polled.status, 200);
    assert.equal(server.responseProblems.length, 1);
    assert.match(
      server.responseProblems[0]!,
      /^GET \/v1\/runs\/:run\/agents\/:agent\/observations 200: .*affordances/,
    );
  } finally {
    await server.close();
  }
});
