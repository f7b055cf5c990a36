import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { serverForSuite } from "./helpers/server.js";

const run = promisify(execFile);
const sdkDir = fileURLToPath(new URL("../sdk/python", import.meta.url));
const TOKEN = "t-python-0123456789abc";
const guarded = serverForSuite({ token: TOKEN });

/** Creates, claims, polls and deletes with the SDK; prints what each step answered. */
const SCRIPT = `
import json, sys
from warren_agent import WarrenClient, WarrenError
out = {}
try:
    WarrenClient(sys.argv[1], token="").create_run("bridge_repair")
except WarrenError as error:
    out["without"] = error.body["error"]
warren = WarrenClient(sys.argv[1])  # the token from WARREN_TOKEN
run = warren.create_run("bridge_repair", controlled_agents=["engineer-1"])
session = warren.agent(run["run_id"], "engineer-1")
session.claim()
out["observed"] = session.observe(5)["agent_id"]
out["deleted"] = warren.delete_run(run["run_id"])["status"]
print(json.dumps(out))
`;

describe("Python SDK and the access token", () => {
  it("sends the token from WARREN_TOKEN (or token=) to create, claim and delete", async () => {
    const { stdout } = await run("python3", ["-c", SCRIPT, guarded.url], {
      env: { ...process.env, PYTHONPATH: sdkDir, WARREN_TOKEN: TOKEN },
      timeout: 60_000,
    });
    assert.deepEqual(JSON.parse(stdout.trim().split("\n").at(-1)!), {
      without: "token_required",
      observed: "engineer-1",
      deleted: "deleted",
    });
  });
});
