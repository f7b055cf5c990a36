// `node --import tsx bench/budgets.ts`: what holding the sessions to roost.json's budgets costs each
// usage update, with BENCH_SESSIONS sessions (default 500) under 3 budgets and under the most
// roost.json takes (100), none passed: the budgets' look at one update (its count, the day's, each
// budget) against the floor of building the session's row, which every change of a session costs
// already. Both run in the same process, on a real store, in turns; the ratios are printed.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Budgets } from "../src/daemon/budgets/budgets.js";
import { EventsFeed } from "../src/daemon/feed/events-feed.js";
import { DaemonState } from "../src/daemon/jobs/daemon-state.js";
import { type Job, jobFromRecord } from "../src/daemon/jobs/job.js";
import { toRow } from "../src/daemon/jobs/job-row.js";
import { newRecord } from "../src/daemon/jobs/new-record.js";
import { Supervisor } from "../src/daemon/jobs/supervisor.js";
import { Notifier } from "../src/daemon/notify/notifier.js";
import { Store } from "../src/daemon/store/store.js";
import { TerminalRows } from "../src/daemon/terminal/terminal-rows.js";
import { MAX_BUDGETS } from "../src/home/budgets.js";
import { statePaths } from "../src/home/paths.js";
import { emptyReport } from "../src/protocol/index.js";
import { figures, nowMs } from "./stats.js";

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 500);
const ROUNDS = 40;

/** `count` budgets, none of which the bench's usage passes: half per session and `stop`, half per day and `notify`. */
function budgetList(count: number): object[] {
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? { tokens: 1e12, per: "session", action: "stop" }
      : { cost: 1e9, per: "day", action: "notify", ...(i % 4 === 1 ? { profile: "claude" } : {}) },
  );
}

/** Each session's usage grown by one model call, as a report gives it. */
function grow(job: Job, round: number): void {
  const n = round + 1;
  job.report = {
    ...emptyReport(),
    usage: { input: 10 * n, output: 5 * n, cacheRead: 100 * n, cacheWrite: 0, cost: 0.0001 * n },
  };
}

/** The floor and the budgets' look, per update, in ms: SESSIONS sessions under `count` budgets. */
async function measure(count: number): Promise<{ floor: number[]; held: number[] }> {
  const home = mkdtempSync(join(tmpdir(), "roost-bench-budgets-"));
  writeFileSync(join(home, "roost.json"), JSON.stringify({ budgets: budgetList(count) }));
  const store = new Store(join(home, "roost.db"));
  const state = new DaemonState(statePaths(home), store, () => {});
  const watcher = new Budgets({
    state,
    store,
    feed: new EventsFeed(store, () => state.now()),
    notifier: new Notifier(state, () => {}),
    supervisor: new Supervisor(
      state,
      () => Promise.reject(new Error("no host here")),
      () => {},
      new TerminalRows(state),
    ),
    log: () => {},
    now: () => Date.now(),
  });
  const jobs: Job[] = Array.from({ length: SESSIONS }, (_, i) => {
    const record = newRecord(
      {
        id: `job${i}`,
        name: `session-${i}`,
        profile: i % 2 === 0 ? "claude" : "pi",
        kind: "protocol",
        cwd: home,
        task: null,
        command: ["true"],
        env: {},
        dir: join(home, `job${i}`),
        lifecycle: "running",
        order: i,
      },
      state.now(),
    );
    const job = jobFromRecord(record, [], "resumes");
    state.jobs.set(job.id, job);
    return job;
  });
  const floor: number[] = [];
  const held: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const job of jobs) {
      grow(job, round);
      let at = nowMs();
      toRow(job);
      floor.push(nowMs() - at);
      at = nowMs();
      watcher.changed(job);
      held.push(nowMs() - at);
    }
    // The store's writer takes the round's writes, as the daemon's would between updates.
    await store.committed();
  }
  await store.close();
  rmSync(home, { recursive: true, force: true });
  return { floor, held };
}

const load = loadavg()
  .map((l) => l.toFixed(2))
  .join(" ");
console.log(`budgets, ${SESSIONS} sessions, ${ROUNDS} usage updates each (load average ${load})`);
/** Microseconds to a tenth: the look at one update is a few of them. */
const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
for (const count of [3, MAX_BUDGETS]) {
  const { floor, held } = await measure(count);
  const f = figures(floor);
  const b = figures(held);
  console.log(
    `  ${String(count).padStart(3)} budgets: a row built (floor) p50 ${us(f.p50)}, p99 ${us(f.p99)}; ` +
      `the budgets' look p50 ${us(b.p50)}, p99 ${us(b.p99)}; ratio p50 ${(b.p50 / f.p50).toFixed(2)}x, p99 ${(b.p99 / f.p99).toFixed(2)}x`,
  );
}
