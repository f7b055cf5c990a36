// SIGKILL of the daemon at random moments under load (replies to protocol agents, dispatches and
// typed replies with request ids, agent messages, board claims): nothing answered is lost, nothing
// is taken twice, and every agent process lives on. ROOST_FAULT_KILLS sets how many kills (3 here;
// `npm run faults` runs 100). Then SIGKILL of the process host: its jobs are `interrupted`, their
// replies kept for `respawn`.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { type Message, receivedBy, startTestDaemon, type TestDaemon, waitFor } from "./helpers/daemon.js";
import {
  FAULT_PROFILES,
  hostPidOf,
  isAlive,
  killHost,
  reportFigures,
  typedLines,
  untilAsking,
} from "./helpers/faults.js";
import { once, type Secret, secretOf, timesTaken, untilAnswered } from "./helpers/kill-load.js";

const KILLS = Number(process.env.ROOST_FAULT_KILLS) || 3;
const PROFILES = {
  ...FAULT_PROFILES,
  taker: { ...FAULT_PROFILES.agent, env: { AGENT_ITEMS: "1" } },
};

async function rowsOf(daemon: TestDaemon): Promise<Message[]> {
  return (await untilAnswered(daemon, "list", {})).result.rows;
}

function receivedTexts(daemon: TestDaemon, id: string) {
  return receivedBy(join(daemon.stateDir, "jobs", id));
}

test(`${KILLS} SIGKILLs of the daemon under load: lost 0, doubled 0, every agent process alive`, async (t) => {
  const daemon = await startTestDaemon({ config: { agentProfiles: PROFILES, agentExternalMessages: true } });
  try {
    const hub = await daemon.connect();
    const agents: string[] = [];
    for (const name of ["a1", "a2", "a3"])
      agents.push((await hub.request("dispatch", { profile: "taker", name })).result.id);
    const typist = (await hub.request("dispatch", { profile: "typist" })).result.id as string;
    const sender = (await hub.request("dispatch", { profile: "mute", name: "sender" })).result.id as string;
    hub.close();
    const live = await waitFor("every agent connected", async () => {
      const rows = await rowsOf(daemon);
      const ready = rows.filter((r) => (agents.includes(r.id) ? r.connected : r.id === typist && r.pid));
      return ready.length === agents.length + 1 ? rows : undefined;
    });
    await untilAsking(daemon, typist);
    const pids = new Map(live.filter((r) => r.pid).map((r) => [r.id, r.pid as number]));
    const as: Secret = await secretOf(daemon, sender);

    const replies: string[] = [];
    const typed: string[] = [];
    const dispatched = new Map<string, Set<string>>();
    const messages = { answered: [] as string[], unsure: [] as string[] };
    const claims = { answered: [] as number[], unsure: 0 };
    const refusals: Message[] = [];
    const taken = (answer: Message) => {
      if (!answer.ok) refusals.push(answer);
      return answer.ok;
    };

    const round = async (k: number) => {
      const work: Promise<unknown>[] = agents.map(async (id) => {
        const text = `reply ${k} to ${id}`;
        if (taken(await untilAnswered(daemon, "reply", { id, text, requestId: `r-${k}-${id}` })))
          replies.push(text);
      });
      work.push(
        (async () => {
          const requestId = `d-${k}`;
          const answer = await untilAnswered(daemon, "dispatch", { profile: "quitter", requestId });
          if (taken(answer)) {
            const ids = dispatched.get(requestId) ?? new Set();
            ids.add(answer.result.id);
            dispatched.set(requestId, ids);
          }
        })(),
        (async () => {
          const text = `typed-${k}`;
          if (taken(await untilAnswered(daemon, "reply", { id: typist, text, requestId: `t-${k}` })))
            typed.push(text);
        })(),
        (async () => {
          // No request id: sent once; without an answer the sender cannot know.
          const text = `message ${k}`;
          const answer = await once(daemon, "send", { to: agents[k % agents.length], message: text }, as);
          if (answer === undefined) messages.unsure.push(text);
          else if (taken(answer)) messages.answered.push(text);
        })(),
        (async () => {
          const added = await once(daemon, "task", { action: "add", title: `task ${k}` });
          if (added === undefined) {
            claims.unsure++;
            return;
          }
          if (!taken(added)) return;
          const id = added.result.task.id as number;
          // Claiming one's own claim again is fine: the claim is sent until it is answered.
          if (taken(await untilAnswered(daemon, "task", { action: "claim", id }, as)))
            claims.answered.push(id);
        })(),
      );
      await Promise.all(work);
    };

    for (let k = 0; k < KILLS; k++) {
      const load = round(k);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 400));
      await daemon.kill("SIGKILL");
      await daemon.start();
      await load;
    }
    // One round more with the daemon left alone.
    await round(KILLS);

    assert.deepEqual(refusals, [], "no request was refused");
    // Lost: an answered reply or message that never reached its agent; doubled: one taken under two seqs.
    const expected = new Map<string, string[]>(agents.map((id) => [id, []]));
    for (const text of replies) expected.get(text.split(" to ")[1]!)!.push(text);
    messages.answered.forEach((text) => {
      const k = Number(text.split(" ")[1]);
      expected.get(agents[k % agents.length]!)!.push(text);
    });
    const count = () => {
      const missing: string[] = [];
      let doubled = 0;
      for (const [id, texts] of expected) {
        const times = timesTaken(receivedTexts(daemon, id));
        missing.push(...texts.filter((text) => !times.has(text)));
        doubled += [...times.values()].filter((n) => n > 1).length;
      }
      return { missing, doubled };
    };
    await waitFor("every answered reply and message at its agent", async () =>
      count().missing.length === 0 ? true : undefined,
    ).catch(() => {});
    const { missing, doubled } = count();
    const figures = { lost: missing.length, doubled };
    const typedOnce = await waitFor(
      "every typed reply in the terminal",
      async () => {
        const lines = typedLines(daemon, typist);
        return typed.every((text) => lines.includes(text)) ? lines : undefined;
      },
      30_000,
    ).catch(() => typedLines(daemon, typist));
    const typedLost = typed.filter((text) => !typedOnce.includes(text)).length;
    const typedDoubled = typed.filter((text) => typedOnce.filter((l) => l === text).length > 1).length;
    const rows = await rowsOf(daemon);
    const quitters = rows.filter((r) => r.profile === "quitter").length;
    const board = (await untilAnswered(daemon, "task", { action: "list" })).result.tasks as Message[];
    const claimed = board.filter((task) => claims.answered.includes(task.id) && task.owner?.id === sender);
    const agentRows = [...pids].map(([id, pid]) => ({ pid, row: rows.find((r) => r.id === id)! }));
    reportFigures(t, {
      kills: KILLS,
      replies: replies.length,
      dispatches: dispatched.size,
      typed: typed.length,
      messages: messages.answered.length,
      "messages unanswered": messages.unsure.length,
      claims: claims.answered.length,
      "claims held": `${claimed.length}/${claims.answered.length}`,
      lost: figures.lost + typedLost,
      doubled: figures.doubled + typedDoubled + (quitters - dispatched.size),
      "agents alive": `${agentRows.filter(({ pid, row }) => row.pid === pid && isAlive(pid)).length}/${pids.size}`,
      restarts: agentRows.reduce((sum, { row }) => sum + row.restarts, 0),
    });
    assert.deepEqual(missing, [], "lost");
    assert.equal(doubled, 0, "doubled");
    assert.equal(typedLost, 0);
    assert.equal(typedDoubled, 0);
    assert.equal(quitters, dispatched.size, "one job per dispatch request id");
    for (const [requestId, ids] of dispatched) assert.equal(ids.size, 1, `${requestId} answered one job`);
    assert.equal(claimed.length, claims.answered.length, "every answered claim is held");
    // Every agent process is the one that started: none restarted, none lost.
    for (const [id, pid] of pids) {
      const row = rows.find((r) => r.id === id)!;
      assert.equal(row.pid, pid, `${row.name} runs in the process it started in`);
      assert.equal(row.restarts, 0);
      assert.ok(isAlive(pid));
    }
  } finally {
    await daemon.stop();
  }
});

test("SIGKILL of the process host: its jobs are interrupted, their replies kept, and respawn delivers them", async (t) => {
  const daemon = await startTestDaemon({ config: { agentProfiles: FAULT_PROFILES } });
  try {
    const c = await daemon.connect();
    const { id } = (await c.request("dispatch", { profile: "holder", task: "first" })).result;
    const before = await waitFor("the agent to connect", async () => {
      const row = (await c.request("list")).result.rows.find((r: Message) => r.id === id);
      return row?.connected ? row : undefined;
    });
    assert.equal((await c.request("reply", { id, text: "kept" })).ok, true);
    // Its first process takes the reply (and never acks it) before its host is killed.
    const jobDir = join(daemon.stateDir, "jobs", id);
    await waitFor("the agent to get the reply", async () =>
      receivedBy(jobDir).some((r) => r.text === "kept") ? true : undefined,
    );
    const host = await hostPidOf(daemon);
    await killHost(daemon);
    const interrupted = (await c.request("list")).result.rows.find((r: Message) => r.id === id);
    assert.equal(interrupted.lifecycle, "interrupted");
    assert.equal(interrupted.pending, 2, "the task and the reply are kept");
    assert.ok(!isAlive(before.pid), "the agent went with its host");
    // The daemon serves on, with a new host.
    assert.equal((await c.request("respawn", { id })).ok, true);
    await waitFor(
      "the respawned agent to get both again",
      async () => {
        const texts = receivedBy(jobDir).map((r) => r.text);
        return texts.filter((text) => text === "kept").length >= 2 ? true : undefined;
      },
      60_000,
    );
    const newHost = await hostPidOf(daemon);
    reportFigures(t, {
      "host SIGKILLs": 1,
      "job after": interrupted.lifecycle,
      "replies kept": interrupted.pending,
    });
    assert.notEqual(newHost, host, "a new host");
    assert.ok(readFileSync(join(daemon.stateDir, "daemon.log"), "utf8").length > 0);
    c.close();
  } finally {
    await daemon.stop();
  }
});
