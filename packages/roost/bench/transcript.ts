// `npm run bench:transcript`: a long pi session (BENCH_TRANSCRIPT_TURNS turns of a message, a tool
// call, a 2 KB result and an answer) read whole through the `transcript` op, page by page, against
// the floor of reading the same file and parsing each line in this process; then what a follower's
// poll at its end costs, against a `stats` round trip (an op that reads nothing), and the daemon's
// memory after it all. The job is a protocol agent of the bench's own that says `transcript` and
// reports the session file, as pi's worker does.
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { statePaths } from "../src/home/paths.js";
import { cleanUp } from "./clean-up.js";
import { jobTokens } from "./job-tokens.js";
import { LinesClient } from "./lines-client.js";
import { figures, fmt, nowMs } from "./stats.js";

const TURNS = Number(process.env.BENCH_TRANSCRIPT_TURNS ?? 10_000);
const POLLS = 500;
const CLI = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));
const children: ChildProcess[] = [];

function line(message: Record<string, unknown>, n: number): string {
  return JSON.stringify({
    type: "message",
    id: `e${n}`,
    timestamp: new Date(1e12 + n).toISOString(),
    message,
  });
}

/** A pi session of `turns` turns, four entries each. */
function writeSession(file: string, turns: number): void {
  const out = [
    JSON.stringify({ type: "session", version: 3, id: "bench", timestamp: new Date(1e12).toISOString() }),
  ];
  for (let t = 0; t < turns; t++) {
    out.push(line({ role: "user", content: `turn ${t}: ${"please look at the code ".repeat(8)}` }, 4 * t));
    out.push(
      line(
        {
          role: "assistant",
          content: [{ type: "toolCall", id: `c${t}`, name: "bash", arguments: { command: "ls" } }],
        },
        4 * t + 1,
      ),
    );
    out.push(
      line(
        {
          role: "toolResult",
          toolCallId: `c${t}`,
          toolName: "bash",
          content: [{ type: "text", text: "x".repeat(2048) }],
        },
        4 * t + 2,
      ),
    );
    out.push(
      line(
        { role: "assistant", content: [{ type: "text", text: `done ${"with the turn ".repeat(30)}` }] },
        4 * t + 3,
      ),
    );
  }
  writeFileSync(file, `${out.join("\n")}\n`);
}

/** The floor: the file read and each line parsed here, as a reader of it must at least do. */
function floorMs(file: string): number {
  const t0 = nowMs();
  let count = 0;
  for (const text of readFileSync(file, "utf8").split("\n"))
    if (text !== "") count += JSON.parse(text) ? 1 : 0;
  if (count === 0) throw new Error("nothing parsed");
  return nowMs() - t0;
}

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "roost-bench-transcript-"));
  const paths = statePaths(home);
  const session = join(home, "session.jsonl");
  writeFileSync(
    join(home, "roost.json"),
    JSON.stringify({ agentProfiles: { bench: { command: ["sleep", "600"], task: "type", protocol: true } } }),
  );
  writeSession(session, TURNS);
  const size = statSync(session).size;
  try {
    children.push(
      spawn(process.execPath, ["--import", "tsx", CLI, "daemon"], {
        env: { ...process.env, ROOST_HOME: home },
        stdio: ["ignore", "ignore", "inherit"],
      }),
    );
    const hub = await LinesClient.openWhenReady(paths.socket);
    const { id } = (await hub.request("dispatch", { profile: "bench" })).result as { id: string };
    const [{ token }] = await jobTokens(hub, [id]);
    const agent = await LinesClient.open(paths.socket);
    await agent.request("hello", {
      protocol: 1,
      agent: { name: "bench", version: "1" },
      capabilities: ["report", "transcript"],
    });
    const reported = await agent.request("report", {
      id,
      token,
      report: { state: "working", summary: "talking", session },
    });
    if (!reported.ok) throw new Error(`report refused: ${reported.error}`);

    console.log(
      `transcript bench: ${TURNS} turns, ${TURNS * 4} entries, ${(size / 1024 / 1024).toFixed(1)} MiB of session, node ${process.version}`,
    );
    const rssMb = async () => ((await hub.request("stats", {})).result.rss / 1024 / 1024).toFixed(0);
    const rssBefore = await rssMb();
    const readWhole = async () => {
      const t0 = nowMs();
      let cursor = "";
      let pages = 0;
      let entries = 0;
      for (;;) {
        const answer = await hub.request("transcript", { id, after: cursor });
        if (!answer.ok) throw new Error(`transcript refused: ${answer.code}: ${answer.error}`);
        const page = answer.result;
        pages++;
        entries += page.entries.length;
        cursor = page.cursor;
        if (!page.more) return { ms: nowMs() - t0, pages, entries, cursor };
      }
    };
    // Each side twice, interleaved; the better of each is compared (the first warms the code up).
    const floors = [floorMs(session)];
    const wholes = [await readWhole()];
    floors.push(floorMs(session));
    wholes.push(await readWhole());
    const floor = Math.min(...floors);
    const whole = wholes.reduce((a, b) => (a.ms <= b.ms ? a : b));
    if (whole.entries !== TURNS * 4) throw new Error(`read ${whole.entries} entries, not ${TURNS * 4}`);
    console.log(
      `whole transcript through the op: ${whole.ms.toFixed(0)} ms in ${whole.pages} pages; floor (read and parse the file here): ${floor.toFixed(0)} ms; ratio ${(whole.ms / floor).toFixed(2)}x`,
    );

    const trips = async (ask: () => Promise<unknown>) => {
      const samples: number[] = [];
      for (let i = 0; i < POLLS; i++) {
        const t0 = nowMs();
        await ask();
        samples.push(nowMs() - t0);
      }
      return figures(samples);
    };
    const stats = await trips(() => hub.request("stats", {}));
    const polls = await trips(() => hub.request("transcript", { id, after: whole.cursor }));
    console.log(
      `a follower's poll at the end: p50 ${fmt(polls.p50)} ms, p99 ${fmt(polls.p99)} ms; a stats round trip: p50 ${fmt(stats.p50)} ms, p99 ${fmt(stats.p99)} ms; ratio p50 ${(polls.p50 / stats.p50).toFixed(2)}x`,
    );
    appendFileSync(session, `${line({ role: "user", content: "one more" }, 4 * TURNS)}\n`);
    const t0 = nowMs();
    const next = (await hub.request("transcript", { id, after: whole.cursor })).result;
    console.log(`an entry appended, the next poll: ${next.entries.length} entry in ${fmt(nowMs() - t0)} ms`);
    console.log(`daemon memory: ${rssBefore} MB RSS before the reads, ${await rssMb()} MB after them`);
    agent.close();
    await hub.request("shutdown", { all: true });
    hub.close();
  } finally {
    await cleanUp(children, home);
  }
}

await main();
