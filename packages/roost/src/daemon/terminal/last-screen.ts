/**
 * A job's last screen, kept in its folder when its process ends (the host then forgets the job), so
 * `roost attach` can still show what it showed. Escape sequences that redraw it, as `serialize` gives.
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ProcessHost } from "../host/api.js";
import { terminalLogPath } from "../host/files.js";

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

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return null;
  }
}

/**
 * The last screen kept for a job; else (none was kept: the daemon was not there when it ended) the
 * end of its terminal's output log, which redraws what it showed last; null when there is neither.
 */
export async function readLastScreen(jobDir: string): Promise<string | null> {
  const kept = await readOrNull(lastScreenPath(jobDir));
  if (kept !== null) return kept;
  return (await readOrNull(terminalLogPath(jobDir)))?.slice(-MAX_LAST_SCREEN_CHARS) ?? null;
}
