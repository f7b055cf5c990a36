// `npm run bench:pi`: pi's start and first answer on a local fake model, without and with roost's
// extension, and a reply's latency from `roost reply` to pi's request reaching the model.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { statePaths } from "../src/home/paths.js";
import { piCliPath, piExtensionPath } from "../src/home/pi-profile.js";
import { fakeModelsJson, startFakeModel } from "../test/fixtures/fake-openai.js";
import { LinesClient } from "./lines-client.js";
import { figures, fmt, nowMs } from "./stats.js";

const ROUNDS = Number(process.env.BENCH_PI_ROUNDS ?? 3);
const REPLIES = Number(process.env.BENCH_PI_REPLIES ?? 20);
const CLI = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));
// The built extension, as an installed roost loads it (run `npm run build` first); else the source.
const BUILT = fileURLToPath(new URL("../dist/pi/extension.js", import.meta.url));
const EXTENSION = existsSync(BUILT) ? BUILT : piExtensionPath();

const model = await startFakeModel((request) => ({ text: `answer to: ${request.last}` }));
const piDir = mkdtempSync(join(tmpdir(), "roost-bench-pi-"));
const home = mkdtempSync(join(tmpdir(), "roost-bench-home-"));
writeFileSync(join(piDir, "models.json"), fakeModelsJson(model.baseUrl));
writeFileSync(
  join(piDir, "settings.json"),
  JSON.stringify({ defaultProvider: "fake", defaultModel: "fake-model" }),
);
const env = { ...process.env, PI_CODING_AGENT_DIR: piDir, PI_OFFLINE: "1", ROOST_HOME: home };

/** One `pi -p`: milliseconds from its start to its first request at the model, and to its exit. */
function printRun(extension: boolean): Promise<{ request: number; exit: number }> {
  const args = [piCliPath(), "--no-extensions", ...(extension ? ["-e", EXTENSION] : []), "-p", "hi"];
  const from = model.requests.length;
  const start = nowMs();
  const child = spawn(process.execPath, args, { env, cwd: piDir, stdio: "ignore" });
  const request = model.waitFor(() => true, from, 120_000).then(() => nowMs() - start);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", async () => resolve({ request: await request, exit: nowMs() - start }));
  });
}

const median = (xs: number[]) => figures(xs).p50;
const plain: { request: number; exit: number }[] = [];
const withExtension: { request: number; exit: number }[] = [];
for (let i = 0; i < ROUNDS; i++) {
  plain.push(await printRun(false));
  withExtension.push(await printRun(true));
}
const row = (label: string, runs: { request: number; exit: number }[]) =>
  `${label.padEnd(22)} first request ${median(runs.map((r) => r.request)).toFixed(0)} ms, answered and exited ${median(runs.map((r) => r.exit)).toFixed(0)} ms`;
console.log(`pi -p on the fake model, median of ${ROUNDS}:`);
console.log(row("without the extension", plain));
console.log(row("with the extension", withExtension));
console.log(
  `the extension adds ${(median(withExtension.map((r) => r.exit)) - median(plain.map((r) => r.exit))).toFixed(0)} ms`,
);

// A pi job under a real daemon: `reply` → pi's request at the model.
const daemon: ChildProcess = spawn(process.execPath, ["--import", "tsx", CLI, "daemon"], {
  env,
  stdio: "ignore",
});
const socket = statePaths(home).socket;
let hub: LinesClient | undefined;
for (const deadline = Date.now() + 60_000; !hub; ) {
  hub = await LinesClient.open(socket).catch(async (error) => {
    if (Date.now() > deadline) throw error;
    await new Promise((r) => setTimeout(r, 50));
    return undefined;
  });
}
const { result } = await hub.request("dispatch", { profile: "pi", task: "warm up", cwd: piDir });
const id = result.id as string;
async function settled(): Promise<void> {
  for (;;) {
    const rows = (await hub!.request("list", {})).result.rows as {
      id: string;
      state: string;
      pending: number;
    }[];
    const row = rows.find((r) => r.id === id);
    if (row && row.state === "done" && row.pending === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}
await settled();
const samples: number[] = [];
for (let i = 0; i < REPLIES; i++) {
  const text = `reply ${i}`;
  const from = model.requests.length;
  const start = nowMs();
  await hub.request("reply", { id, text });
  await model.waitFor((r) => r.last === text, from, 60_000);
  samples.push(nowMs() - start);
  await settled();
}
const latency = figures(samples);
console.log(
  `reply → request at the model: p50 ${fmt(latency.p50)} ms, p99 ${fmt(latency.p99)} ms (n=${latency.n})`,
);
await hub.request("shutdown", { all: true });
hub.close();
await new Promise((r) => daemon.once("exit", r));
await model.close();
rmSync(piDir, { recursive: true, force: true });
rmSync(home, { recursive: true, force: true });
