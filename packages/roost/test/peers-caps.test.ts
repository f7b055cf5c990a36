import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { speakFor } from "./helpers/a2a.js";
import { type RawConnection, TEST_PROFILES, waitFor } from "./helpers/daemon.js";
import { peersSuite } from "./helpers/peers-suite.js";

// A project's roost.json has no say: only the user's (the home's) sets the caps.
const suite = peersSuite({ mute: TEST_PROFILES.mute });
const { clock, conns } = suite;

async function root(name: string): Promise<{ id: string; conn: RawConnection }> {
  const { id } = await suite.hub.call("dispatch", { profile: "mute", name });
  const conn = await speakFor(suite.daemon, id);
  conns.push(conn);
  return { id, conn };
}

async function spawnFrom(conn: RawConnection, name?: string) {
  return conn.request("spawn", { task: "sleep on it", ...(name ? { name } : {}) });
}

async function spawned(conn: RawConnection): Promise<{ id: string; conn: RawConnection }> {
  const answer = await spawnFrom(conn);
  assert.equal(answer.ok, true, answer.error);
  const child = await speakFor(suite.daemon, answer.result.id);
  conns.push(child);
  return { id: answer.result.id, conn: child };
}

const limited = (answer: Record<string, unknown>, what: RegExp) => {
  assert.equal(answer.code, "limit", JSON.stringify(answer));
  assert.match(answer.error as string, what);
};

describe("the spawn caps, each at its edge", () => {
  test("a bad spawn is refused with its code", async () => {
    const r = await root("bad");
    for (const [args, code] of [
      [{}, "bad_request"],
      [{ task: "" }, "bad_request"],
      [{ task: "x", profile: "nope" }, "not_found"],
      [{ task: "x", cwd: "/no/such/folder" }, "bad_request"],
      [{ task: "x", model: "m".repeat(201) }, "bad_request"],
    ] as const)
      assert.equal((await r.conn.request("spawn", args)).code, code, JSON.stringify(args));
    const hubConn = await suite.daemon.connect();
    assert.equal((await hubConn.request("spawn", { task: "x" })).code, "unauthorized", "a hub is no session");
    hubConn.close();
  });

  test("depth 3 below the root", async () => {
    const r = await root("deep");
    const c1 = await spawned(r.conn);
    const c2 = await spawned(c1.conn);
    const c3 = await spawned(c2.conn);
    limited(await spawnFrom(c3.conn), /4 deep; agentMaxDepth is 3/);
    const rows = (await suite.hub.call("list", {})).rows;
    const row3 = rows.find((row) => row.id === c3.id)!;
    assert.deepEqual([row3.parentSession, row3.rootSession, row3.parent], [c2.id, r.id, c2.id]);
  });

  test("8 live children per parent; 10 spawns a minute per tree, then a minute later more", async () => {
    const r = await root("wide");
    const children: { id: string; conn: RawConnection }[] = [];
    for (let i = 0; i < 8; i++) children.push(await spawned(r.conn));
    limited(await spawnFrom(r.conn), /8 live children already; at most 8/);
    // The tree has had 8 spawns this minute: 2 more, then the 11th is refused.
    await spawned(children[0]!.conn);
    await spawned(children[0]!.conn);
    limited(await spawnFrom(children[1]!.conn), /10 spawns in this tree in the last minute; at most 10/);
    clock.advance(61_000);
    await spawned(children[1]!.conn);
    // A stopped child no longer counts against its parent.
    await suite.hub.call("stop", { id: children[7]!.id });
    await waitFor("the child stopped", async () =>
      (await suite.hub.call("list", {})).rows.find((row) => row.id === children[7]!.id)?.lifecycle ===
      "stopped"
        ? true
        : undefined,
    );
    await spawned(r.conn);
  });

  test("16 live sessions per tree (the root counted), 32 live spawned sessions overall", async () => {
    clock.advance(61_000);
    const r = await root("big");
    const kids: { id: string; conn: RawConnection }[] = [];
    for (let i = 0; i < 8; i++) kids.push(await spawned(r.conn));
    for (let i = 0; i < 2; i++) kids.push(await spawned(kids[0]!.conn));
    clock.advance(61_000);
    for (let i = 0; i < 5; i++) kids.push(await spawned(kids[1]!.conn));
    limited(await spawnFrom(kids[2]!.conn), /16 live sessions in this tree already; at most 16/);
    // Live spawned so far: 3 (deep) + 8 + 3 (wide, one stopped) + 15 (big) = 29.
    clock.advance(61_000);
    const last = await root("last");
    for (let i = 0; i < 3; i++) await spawned(last.conn);
    limited(await spawnFrom(last.conn), /32 live spawned sessions already; at most 32/);
  });
});
