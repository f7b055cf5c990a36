import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { describe, it } from "node:test";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { LineTransport } from "../src/mcp/line-transport.js";

/** A transport over in-memory streams, with what it handed on. */
async function started() {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new LineTransport(input, output);
  const messages: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  let closed = 0;
  transport.onmessage = (message) => messages.push(message);
  transport.onerror = (error) => errors.push(error);
  transport.onclose = () => closed++;
  await transport.start();
  return { input, output, transport, messages, errors, closed: () => closed };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("warren mcp's stdio lines", () => {
  it("reads a message split across chunks (inside a multi-byte character too) and several in one chunk", async () => {
    const t = await started();
    const first = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"note":"é"}}\n');
    const cut = first.indexOf(Buffer.from("é")) + 1;
    t.input.write(first.subarray(0, cut));
    await tick();
    assert.equal(t.messages.length, 0);
    t.input.write(first.subarray(cut));
    t.input.write(
      '{"jsonrpc":"2.0","method":"notifications/initialized"}\r\n\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n',
    );
    await tick();
    assert.deepEqual(t.messages, [
      { jsonrpc: "2.0", id: 1, method: "ping", params: { note: "é" } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "ping" },
    ]);
    assert.deepEqual(t.errors, []);
  });

  it("reports a line that is not JSON and goes on with the next", async () => {
    const t = await started();
    t.input.write('not json\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    await tick();
    assert.equal(t.errors.length, 1);
    assert.deepEqual(t.messages, [{ jsonrpc: "2.0", id: 3, method: "ping" }]);
  });

  it("writes each message as one line, and closes once when stdin ends", async () => {
    const t = await started();
    await t.transport.send({ jsonrpc: "2.0", id: 4, result: {} });
    assert.equal(t.output.read().toString(), '{"jsonrpc":"2.0","id":4,"result":{}}\n');
    t.input.end();
    await tick();
    await t.transport.close();
    assert.equal(t.closed(), 1);
  });
});
