// `node --import tsx bench/usage.ts` (`--check` exits non-zero on a missed goal; `--cpu-prof DIR`
// writes the daemon's CPU profile there; BENCH_SESSIONS changes the 100 sessions): what reading
// Claude Code's session records costs the daemon. 100 Claude Code jobs (a program that only waits,
// so the daemon's work is the reading alone), each record appended with one model call a second as
// Claude Code writes it:
// - the daemon's CPU while every record grows, against the same 100 jobs with records that do not
//   (the floor, measured just before); goal: under 5 % of a core;
// - a call's delay until its row's usage counts it; goal: p50 under 1 s.
import { spawn } from "node:child_process";
import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { statePaths } from "../src/home/paths.js";
import { LinesClient } from "./lines-client.js";
import { cpuSeconds } from "./process-cpu.js";
import { figures, nowMs } from "./stats.js";

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 100);
const APPEND_SECONDS = 20;
const IDLE_SECONDS = 5;
const check = process.argv.includes("--check") || process.env.BENCH_CHECK === "1";
const profAt = process.argv.indexOf("--cpu-prof");
const prof = profAt >= 0 ? ["--cpu-prof", "--cpu-prof-dir", process.argv[profAt + 1]!] : [];
const CLI = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));

const root = realpathSync(mkdtempSync(join(tmpdir(), "roost-bench-usage-")));
const home = join(root, "home");
const claudeConfig = join(root, "claude");
const cwd = join(root, "project");
for (const dir of [home, claudeConfig, cwd]) mkdirSync(dir);
// Where Claude Code keeps the records of conversations held in `cwd`.
const records = join(claudeConfig, "projects", cwd.replace(/[^a-zA-Z0-9]/g, "-"));
mkdirSync(records, { recursive: true });
// The job's program: takes the `--session-id` roost gives it and waits.
const program = join(root, "claude-waits");
writeFileSync(program, "#!/bin/sh\nexec sleep 600\n");
chmodSync(program, 0o755);
writeFileSync(
  join(home, "roost.json"),
  JSON.stringify({
    agentProfiles: {
      bench: { command: [program], task: "argv", reader: "claude", env: { CLAUDE_CONFIG_DIR: claudeConfig } },
    },
  }),
);

/** One model call as Claude Code writes it: an assistant line with its message's usage. */
const callLine = (sessionId: string, n: number): string =>
  `${JSON.stringify({
    type: "assistant",
    sessionId,
    message: {
      id: `msg-${n}`,
      model: "claude-sonnet-4-5",
      role: "assistant",
      content: [{ type: "text", text: `answer ${n}` }],
      usage: {
        input_tokens: 1,
        output_tokens: 2,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
      },
    },
  })}\n`;

const daemon = spawn(process.execPath, [...prof, "--import", "tsx", CLI, "daemon"], {
  env: { ...process.env, ROOST_HOME: home },
  stdio: ["ignore", "ignore", "inherit"],
});
const exited = new Promise((r) => daemon.once("exit", r));
let failed = false;
let hub: LinesClient | undefined;
try {
  hub = await LinesClient.openWhenReady(statePaths(home).socket);
  // The calls each row counts (usage.input: one token a call), and who waits for which count.
  const counted = new Map<string, number>();
  const waiting = new Map<string, { calls: number; writtenAt: number }[]>();
  const delays: number[] = [];
  hub.onEvent = (event) => {
    if (event.event !== "row" || !event.row.usage) return;
    const { id, usage } = event.row;
    counted.set(id, usage.input);
    const queue = waiting.get(id);
    while (queue?.length && queue[0]!.calls <= usage.input) delays.push(nowMs() - queue.shift()!.writtenAt);
  };
  await hub.request("subscribe", {});

  for (let i = 0; i < SESSIONS; i++) {
    const r = await hub.request("dispatch", { profile: "bench", cwd, name: `u${i}` });
    if (!r.ok) throw new Error(`dispatch refused: ${r.code}: ${r.error}`);
  }
  // Each job's conversation, with the session id roost gave its program: its record's name.
  const listed = (await hub.request("list", {})).result.rows as {
    id: string;
    conversation?: { sessionId: string | null };
  }[];
  const sessions = listed.map((row) => {
    const sessionId = row.conversation?.sessionId;
    if (!sessionId) throw new Error(`the job has no session id: ${JSON.stringify(row)}`);
    const file = join(records, `${sessionId}.jsonl`);
    appendFileSync(file, callLine(sessionId, 0));
    return { id: row.id, file, calls: 1 };
  });
  // Every row has found its record and counted its first call.
  const deadline = Date.now() + 60_000;
  while (sessions.some((s) => (counted.get(s.id) ?? 0) < 1)) {
    if (Date.now() > deadline) throw new Error("not every row counted its record's first call in 60 s");
    await new Promise((r) => setTimeout(r, 200));
  }

  const idle0 = cpuSeconds(daemon.pid!);
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const idle = (cpuSeconds(daemon.pid!) - idle0) / IDLE_SECONDS;

  // Each record gains a call a second, the writes spread over the second as agents' are.
  const cpu0 = cpuSeconds(daemon.pid!);
  const started = nowMs();
  const writers = sessions.map((session, i) =>
    setTimeout(
      () => {
        const write = () => {
          appendFileSync(session.file, callLine(session.id, session.calls));
          session.calls++;
          const queue = waiting.get(session.id) ?? [];
          queue.push({ calls: session.calls, writtenAt: nowMs() });
          waiting.set(session.id, queue);
        };
        write();
        writers[i] = setInterval(write, 1000);
      },
      (i * 1000) / SESSIONS,
    ),
  );
  await new Promise((r) => setTimeout(r, APPEND_SECONDS * 1000));
  for (const w of writers) clearInterval(w);
  const busy = (cpuSeconds(daemon.pid!) - cpu0) / ((nowMs() - started) / 1000);
  // The last calls' rows.
  await new Promise((r) => setTimeout(r, 2500));
  const unseen = [...waiting.values()].reduce((n, q) => n + q.length, 0);
  const delay = figures(delays);
  console.log(
    `${SESSIONS} Claude Code sessions, each record gaining a call a second for ${APPEND_SECONDS} s (${delays.length + unseen} calls):`,
  );
  console.log(
    `  the daemon at ${(busy * 100).toFixed(1)} % of a core; the same sessions with records that do not grow ${(idle * 100).toFixed(1)} % (${(busy / Math.max(idle, 0.001)).toFixed(1)}x; goal < 5 %)`,
  );
  console.log(
    `  a call until its row counts it: p50 ${delay.p50.toFixed(0)} ms, p99 ${delay.p99.toFixed(0)} ms${unseen ? `, ${unseen} never counted` : ""} (goal p50 < 1000 ms)`,
  );
  console.log(
    `load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}; ${new Date().toISOString()}`,
  );
  failed = busy >= 0.05 || delay.p50 >= 1000 || unseen > 0;
} finally {
  // The daemon ends with the process host and its jobs, whatever happened above.
  if (hub) {
    await hub.request("shutdown", { all: true });
    await Promise.race([exited, new Promise((r) => setTimeout(r, 60_000))]);
    hub.close();
  }
  if (daemon.exitCode === null && daemon.signalCode === null) daemon.kill();
  rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
}
if (check && failed) process.exitCode = 1;
