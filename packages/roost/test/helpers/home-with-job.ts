import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { HostClient } from "../../src/daemon/host/client.js";
import { hostSocketPath } from "../../src/daemon/host/files.js";
import { startTestDaemon, TEST_PROFILES, type TestDaemon, waitFor } from "./daemon.js";

/**
 * A daemon with a terminal job (of `profile`) running in the host, stopped (the job goes on) after a
 * backup that has the job.
 */
export async function homeWithJob(
  profile: keyof typeof TEST_PROFILES = "sleeper",
): Promise<{ daemon: TestDaemon; id: string; pid: number; dir: string }> {
  const daemon = await startTestDaemon({ config: { agentProfiles: TEST_PROFILES } });
  const out = await daemon.cli(["dispatch", profile, "--json"]);
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

/**
 * A process the daemon's process host runs that no job of the store is (as after a database brought
 * back from an older backup), spawned straight through the host's socket, its folder where a job's is.
 */
export async function strayInHost(
  daemon: TestDaemon,
  command = ["sleep", "600"],
): Promise<{ id: string; pid: number }> {
  const id = randomBytes(4).toString("hex");
  const dir = join(daemon.stateDir, "jobs", id);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The daemon answers on its socket before its host is up.
  const host = await waitFor("the process host", () => HostClient.connect(hostSocketPath(daemon.stateDir)));
  try {
    const info = await host.spawn({
      id,
      command,
      cwd: dir,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      dir,
      cols: 80,
      rows: 24,
    });
    return { id, pid: info.pid };
  } finally {
    await host.close();
  }
}
