import { after, before } from "node:test";
import type { DaemonClient } from "../../src/client/daemon-client.js";
import { speakFor } from "./a2a.js";
import { type RawConnection, startTestDaemon, type TestDaemon } from "./daemon.js";
import { hubClient } from "./fixture-agents.js";
import { testClock } from "./test-clock.js";

/**
 * Registers the hooks of a peers suite: a test clock; before, a daemon with `agentProfiles` and a
 * hub client; after, every session connection closed, the hub and daemon stopped, the clock gone.
 */
export function peersSuite(agentProfiles: object) {
  let daemon: TestDaemon;
  let hub: DaemonClient;
  const clock = testClock();
  const conns: RawConnection[] = [];
  before(async () => {
    daemon = await startTestDaemon({ config: { agentProfiles } });
    hub = await hubClient(daemon);
  });
  after(async () => {
    for (const c of conns) c.close();
    hub?.close();
    await daemon?.stop();
    clock.remove();
  });
  return {
    /** Set once the suite's `before` hook has run. */
    get daemon(): TestDaemon {
      return daemon;
    },
    /** The hub client; a new one after `reconnectHub`. */
    get hub(): DaemonClient {
      return hub;
    },
    clock,
    /** Session connections the suite closes at the end. */
    conns,
    /** A connection speaking for job `id` after its report (see `speakFor`), closed at the end. */
    async session(id: string, report?: Record<string, unknown>): Promise<RawConnection> {
      const conn = await speakFor(daemon, id, report);
      conns.push(conn);
      return conn;
    },
    /** Closes the hub client and connects another (after a daemon restart, say). */
    async reconnectHub(): Promise<void> {
      hub.close();
      hub = await hubClient(daemon);
    },
  };
}
