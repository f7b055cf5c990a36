import assert from "node:assert/strict";
import { after, before } from "node:test";
import {
  type Message,
  type RawConnection,
  startTestDaemon,
  TEST_PROFILES,
  type TestDaemon,
  waitFor,
} from "./daemon.js";

/** A suite's daemon (with the test profiles) and a raw hub connection to it, with row readers. */
export interface HubSuite {
  /** Set once the suite's `before` hook has run. */
  readonly daemon: TestDaemon;
  /** The hub connection; a new one after `reconnectHub`. */
  readonly hub: RawConnection;
  /** Runs a hub op, asserts it succeeded and returns its result. */
  ok(op: string, args?: object): Promise<Message>;
  row(id: string): Promise<Message>;
  /** Waits (30 s unless told) until the job's row passes `check`, and returns it. */
  rowWhere(id: string, what: string, check: (row: Message) => boolean, timeoutMs?: number): Promise<Message>;
  /** Closes the hub connection and opens another (after a daemon restart, say). */
  reconnectHub(): Promise<void>;
}

/** Registers the suite's hooks: before, the daemon starts and the hub connects; after, both end. */
export function hubSuite(): HubSuite {
  let daemon: TestDaemon;
  let hub: RawConnection;
  before(async () => {
    daemon = await startTestDaemon({ config: { agentProfiles: TEST_PROFILES } });
    hub = await daemon.connect();
  });
  after(async () => {
    hub.close();
    await daemon.stop();
  });
  async function ok(op: string, args: object = {}): Promise<Message> {
    const response = await hub.request(op, args);
    assert.equal(response.ok, true, `${op}: ${response.error}`);
    return response.result;
  }
  async function row(id: string): Promise<Message> {
    return (await ok("list")).rows.find((r: Message) => r.id === id);
  }
  return {
    get daemon() {
      return daemon;
    },
    get hub() {
      return hub;
    },
    ok,
    row,
    rowWhere: (id, what, check, timeoutMs = 30_000) =>
      waitFor(
        what,
        async () => {
          const r = await row(id);
          return r && check(r) ? r : undefined;
        },
        timeoutMs,
      ),
    async reconnectHub() {
      hub.close();
      hub = await daemon.connect();
    },
  };
}
