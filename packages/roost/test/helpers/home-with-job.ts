import assert from "node:assert/strict";
import { join } from "node:path";
import { startTestDaemon, TEST_PROFILES, type TestDaemon, waitFor } from "./daemon.js";

/** A daemon with a terminal job running in the host, stopped (the job goes on) after a backup that has the job. */
export async function homeWithJob(): Promise<{ daemon: TestDaemon; id: string; pid: number; dir: string }> {
  const daemon = await startTestDaemon({ config: { agentProfiles: TEST_PROFILES } });
  const out = await daemon.cli(["dispatch", "sleeper", "--json"]);
  assert.equal(out.code, 0, out.stderr);
  const { id } = JSON.parse(out.stdout) as { id: string };
  const c = await daemon.connect();
  const pid = await waitFor("the job to run", async () => {
    const row = (await c.request("list")).result.rows.find((r: { id: string }) => r.id === id);
    return row?.lifecycle === "running" && row.pid > 0 ? (row.pid as number) : undefined;
  });
  c.close();
  // The daemon's stop takes a backup of what was written since its start: the job is in it.
  await daemon.kill("SIGTERM");
  return { daemon, id, pid, dir: join(daemon.stateDir, "jobs", id) };
}
