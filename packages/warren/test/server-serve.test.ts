import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { STORE_FILE } from "../src/server/run-store.js";
import { call, waitFor } from "./helpers/server.js";
import { warrenServeFile } from "./helpers/warren-process.js";

const children: ChildProcess[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

/** `warren serve` keeping its runs in memory, so a test leaves nothing in the user's state folder. */
function serve(...args: string[]): ChildProcess {
  const child = spawn(process.execPath, [warrenServeFile, "--no-persist", ...args], {
    stdio: "pipe",
  });
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

  it("refuses to listen beyond loopback without a token unless told, and warns either way", async () => {
    const refused = serve("--host", "0.0.0.0", "--port", "0");
    const refusal = output(refused.stderr!, /--insecure-no-token/);
    const [code] = await once(refused, "exit");
    assert.equal(code, 1);
    assert.match(
      await refusal,
      /listening on 0\.0\.0\.0 would let anyone who can reach it create, claim and delete runs/,
    );
    for (const [args, warning] of [
      [["--insecure-no-token"], /warning: listening on 0\.0\.0\.0 with no token \(--insecure-no-token\)/],
      [
        ["--token", "t-serve-0123456789abc"],
        /warning: listening on 0\.0\.0\.0: reachable from other machines/,
      ],
    ] as const) {
      const child = serve("--host", "0.0.0.0", "--port", "0", ...args);
      // Read as it comes, never closing the pipes: the server writes more after these lines.
      let out = "";
      let err = "";
      child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk;
      });
      child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
        err += chunk;
      });
      const line = await waitFor("the warning", async () =>
        /warning: .*\n/.test(err) ? /listening on (\S+)/.exec(out)?.[1] : undefined,
      );
      assert.match(err, warning);
      const url = line.replace("0.0.0.0", "127.0.0.1");
      const created = await call(url, "POST", "/v1/runs", { query: { scenario: "signal_relay" }, body: {} });
      assert.equal(created.status, args[0] === "--token" ? 401 : 201);
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    }
  });

  it("keeps its runs in the user's state folder unless told otherwise", async () => {
    const state = mkdtempSync(join(tmpdir(), "warren-state-"));
    try {
      const child = spawn(process.execPath, [warrenServeFile, "--port", "0"], {
        stdio: "pipe",
        env: { ...process.env, XDG_STATE_HOME: state },
      });
      children.push(child);
      const line = await output(child.stdout!, /listening on .*\)/);
      assert.match(line, new RegExp(`runs kept in ${join(state, "warren")}\\)`));
      assert.ok(existsSync(join(state, "warren", STORE_FILE)));
      child.kill("SIGTERM");
      assert.deepEqual(await once(child, "exit"), [0, null]);
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });

  it("closes cleanly on a SIGTERM sent the moment its listening line shows, every time", async () => {
    // The signal handlers are in place before the line is written: a SIGTERM at once is no kill.
    await Promise.all(
      Array.from({ length: 3 }, async () => {
        const child = serve("--port", "0");
        const exited = once(child, "exit");
        child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
          if (chunk.includes("listening on")) child.kill("SIGTERM");
        });
        assert.deepEqual(await exited, [0, null]);
      }),
    );
  });

  it("refuses bad flags with exit code 2 and the usage", async () => {
    const cases = [
      ["--port", "70000"],
      ["--lease-ttl", "0"],
      ["--colour", "red"],
      ["extra"],
      ["--claim-within", "3601"],
      ["--data", "somewhere"],
    ];
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
