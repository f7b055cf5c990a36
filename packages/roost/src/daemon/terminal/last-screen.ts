/**
 * A job's last screen, kept in its folder when its process ends (the host then forgets the job), so
 * `roost attach` can still show what it showed. Escape sequences that redraw it, as `serialize` gives.
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ProcessHost } from "../host/api.js";

/** The serialized screen is capped: the last part of a huge one is what matters. */
const MAX_LAST_SCREEN_CHARS = 4 * 1024 * 1024;

function lastScreenPath(jobDir: string): string {
  return join(jobDir, "last-screen");
}

/** Serializes the ended job's screen into its folder (written whole, then renamed into place). */
export async function keepLastScreen(host: ProcessHost, id: string, jobDir: string): Promise<void> {
  const screen = await host.serialize(id);
  const path = lastScreenPath(jobDir);
  await writeFile(`${path}.tmp`, screen.slice(-MAX_LAST_SCREEN_CHARS), { mode: 0o600 });
  await rename(`${path}.tmp`, path);
}

/** The last screen kept for a job, or null when none was. */
export async function readLastScreen(jobDir: string): Promise<string | null> {
  try {
    return await readFile(lastScreenPath(jobDir), "utf8");
  } catch {
    return null;
  }
}
