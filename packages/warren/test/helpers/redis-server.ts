import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";
import { startWarren, type WarrenProcess } from "./warren-process.js";

export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

/** Why Redis cannot run here ("" when it can): the queue tests fail saying so, never pass silently. */
export function redisMissing(): string {
  const probe = spawnSync("redis-server", ["--version"], { encoding: "utf8" });
  return probe.error
    ? "redis-server is not installed; the queue tests need Debian's redis-server package (.ci/run installs it)"
    : "";
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A private redis-server on a free port of 127.0.0.1, its files in a temp folder, nothing saved. */
export async function startRedis(): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), "warren-redis-"));
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      if (output.includes("Ready to accept connections")) resolve();
    });
    child.once("exit", (code) =>
      reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)),
    );
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A private Redis and a `warren worker` taking two runs at a time from it, both stopped after the test. */
export async function redisWithWorker(t: TestContext): Promise<{ url: string; worker: WarrenProcess }> {
  const missing = redisMissing();
  assert.equal(missing, "", missing);
  const redis = await startRedis();
  const worker = startWarren(["worker", "--queue", redis.url, "--concurrency", "2"]);
  t.after(async () => {
    worker.child.kill("SIGKILL");
    await worker.exited;
    await redis.stop();
  });
  await worker.waitForStderr(/worker: taking runs/);
  return { url: redis.url, worker };
}
