import assert from "node:assert/strict";
import type { TestContext } from "node:test";
import type { DaemonClient } from "../../src/client/daemon-client.js";
import { speakFor } from "./a2a.js";
import { type RawConnection, startTestDaemon, type TestDaemon } from "./daemon.js";
import { hubClient } from "./fixture-agents.js";

export type Session = RawConnection & { token: string };

/** A daemon of the test's own with a job `worker` speaking on a connection, and a hub subscribed. */
export interface Fleet {
  daemon: TestDaemon;
  hub: DaemonClient;
  /** A hub connection, subscribed to pushes. */
  raw: RawConnection;
  worker: string;
  workerConn: Session;
  /** A connection speaking for job `id`, idle, closed with the test. */
  session(id: string): Promise<Session>;
}

/** A fleet with the concierge on, played by a scripted connection. */
export interface Concierged extends Fleet {
  cid: string;
  concierge: Session;
}

/** The fleet on a daemon with this `roost.json` (its profiles must have `mute`), ended with the test. */
export async function fleet(t: TestContext, config: object): Promise<Fleet> {
  const daemon = await startTestDaemon({ config });
  const conns: RawConnection[] = [];
  const hub = await hubClient(daemon);
  t.after(async () => {
    for (const conn of conns) conn.close();
    hub.close();
    await daemon.stop();
  });
  const raw = await daemon.connect();
  conns.push(raw);
  assert.equal((await raw.request("subscribe", {})).ok, true);
  const { id: worker } = await hub.call("dispatch", { profile: "mute", name: "worker" });
  const workerConn = await speakFor(daemon, worker, { state: "working", status: "busy", agentItems: true });
  conns.push(workerConn);
  const session = async (id: string) => {
    const conn = await speakFor(daemon, id, { state: "working", status: "idle", agentItems: true });
    conns.push(conn);
    return conn;
  };
  return { daemon, hub, raw, worker, workerConn, session };
}

/** The fleet with the concierge on (a `mute` job), spoken for by the test. */
export async function concierged(t: TestContext, config: object): Promise<Concierged> {
  const f = await fleet(t, config);
  const on = await f.raw.request("concierge", { action: "on", launch: { profile: "mute" } });
  assert.equal(on.ok, true, JSON.stringify(on));
  const cid = on.result.job.id as string;
  return { ...f, cid, concierge: await f.session(cid) };
}
