/**
 * A job's last output lines as a person would read them: its terminal (the live screen and recent
 * scrollback from the host, or the last screen kept in its folder once it ended) replayed into a
 * screen model and read as text. Raw output would show cursor moves and redraws as garbage.
 */
import xtermHeadless from "@xterm/headless";
import { readLastScreen } from "../terminal/last-screen.js";
import type { DaemonState } from "./daemon-state.js";
import type { Job } from "./job.js";

const { Terminal } = xtermHeadless;

/** The width the host runs jobs at: the replay wraps as the job's terminal did. */
const REPLAY_COLUMNS = 120;

async function serializedScreen(state: DaemonState, job: Job): Promise<string | null> {
  const host = state.host;
  if (host && (job.lifecycle === "running" || job.lifecycle === "starting")) {
    try {
      return await host.serialize(job.id);
    } catch {
      // Ended meanwhile, or not started yet: its last screen, if one was kept.
    }
  }
  return readLastScreen(job.dir);
}

/** The last `count` lines the job's terminal shows, trailing blank lines left out. */
export async function lastOutputLines(state: DaemonState, job: Job, count: number): Promise<string[]> {
  const screen = await serializedScreen(state, job);
  if (!screen) return [];
  const terminal = new Terminal({ cols: REPLAY_COLUMNS, rows: 40, scrollback: 1000, allowProposedApi: true });
  try {
    await new Promise<void>((resolve) => terminal.write(screen, resolve));
    const buffer = terminal.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < buffer.length; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? "");
    while (lines.length > 0 && lines.at(-1)!.trim() === "") lines.pop();
    return lines.slice(-count);
  } finally {
    terminal.dispose();
  }
}
