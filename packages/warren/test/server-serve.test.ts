import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { call } from "./helpers/server.js";

const serveFile = fileURLToPath(new URL("../src/cli/serve.ts", import.meta.url));
const children: ChildProcess[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

function serve(...args: string[]): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", serveFile, ...args], { stdio: "pipe" });
  children.push(child);
  return child;
}

async function output(stream: NodeJS.ReadableStream, until: RegExp): Promise<string> {
  let text = "";
  for await (const chunk of stream) {
    text += String(chunk);
    if (until.test(text)) return text;
  }
  return text;
}

describe("warren serve", () => {
  it("listens where told, serves the protocol, and stops cleanly on SIGTERM", async () => {
    const child = serve("--port", "0", "--lease-ttl", "7");
    const line = await output(child.stdout!, /listening on (\S+)/);
    const url = /listening on (\S+)/.exec(line)![1]!;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const created = await call(url, "POST", "/v1/runs", {
      query: { scenario: "bridge_repair" },
      body: { controlled_agents: ["engineer-1"] },
    });
    assert.equal(created.status, 201);
    const claim = await call(url, "POST", `/v1/runs/${created.json.run_id}/agents/engineer-1/claim`);
    assert.equal(claim.json.lease_ttl_s, 7);
    child.kill("SIGTERM");
    const [code] = await once(child, "exit");
    assert.equal(code, 0);
  });

  it("refuses bad flags with exit code 2 and the usage", async () => {
    const cases = [["--port", "70000"], ["--lease-ttl", "0"], ["--colour", "red"], ["extra"]];
    await Promise.all(
      cases.map(async (args) => {
        const child = serve(...args);
        const errors = output(child.stderr!, /Usage:/);
        const [code] = await once(child, "exit");
        assert.equal(code, 2, args.join(" "));
        assert.match(await errors, /Usage: warren serve/);
      }),
    );
  });
});
