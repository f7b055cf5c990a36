import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Message, type RawConnection, type TestDaemon, waitFor } from "./daemon.js";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

/** Terminal agents (no protocol) the terminal tests run, each a real program under a real pty. */
export const TERMINAL_PROFILES = {
  proceed: { command: ["/bin/sh", fixture("terminal-proceed.sh")], task: "argv", protocol: false },
  menu: { command: ["/bin/sh", fixture("terminal-menu.sh")], task: "argv", protocol: false },
  title: { command: ["/bin/sh", fixture("terminal-title.sh")], task: "argv", protocol: false },
  fullscreen: { command: ["/bin/sh", fixture("terminal-fullscreen.sh")], task: "argv", protocol: false },
  givesUp: { command: ["/bin/sh", fixture("terminal-gives-up.sh")], task: "argv", protocol: false },
  paste: { command: ["python3", fixture("terminal-paste.py")], task: "argv", protocol: false },
  pointerMenu: { command: ["python3", fixture("terminal-pointer-menu.py")], task: "argv", protocol: false },
  /** Drops the keys typed in its first 0.15 s; then the first 0.6 s. */
  dropsKeys: {
    command: ["python3", fixture("terminal-pointer-menu.py"), "--flush-after", "0.15"],
    task: "argv",
    protocol: false,
  },
  dropsEnter: {
    command: ["python3", fixture("terminal-pointer-menu.py"), "--flush-after", "0.6"],
    task: "argv",
    protocol: false,
  },
  stuckMenu: {
    command: ["python3", fixture("terminal-pointer-menu.py"), "--stuck"],
    task: "argv",
    protocol: false,
  },
  asksLater: { command: ["/bin/sh", fixture("terminal-asks-later.sh")], task: "argv", protocol: false },
  asksFirst: { command: ["/bin/sh", fixture("terminal-asks-first.sh")], task: "type", protocol: false },
  promptDrawing: {
    command: ["python3", fixture("terminal-paste.py"), "--drawing"],
    task: "type",
    protocol: false,
    reader: "codex",
  },
  silent: {
    command: [
      "/bin/sh",
      "-c",
      'read -r line; printf "got [%s]\\n" "$line" >> "$ROOST_JOB_DIR/received.txt"; sleep 600',
    ],
    task: "type",
    protocol: false,
  },
  /** Idle at a Codex-like prompt under its last answer, its task given. */
  idlePrompt: {
    command: [
      "/bin/sh",
      "-c",
      "printf '• ANSWER: hi\\n\\n› \\n\\n  fake-model default · proj\\033[2A\\033[3G'; sleep 600",
    ],
    task: "argv",
    protocol: false,
    reader: "codex",
  },
  deploy: {
    command: [
      "/bin/sh",
      "-c",
      "echo 'Ready to ship'; printf 'Type SHIP to continue: '; read -r a; echo \"got $a\"; sleep 600",
    ],
    task: "argv",
    protocol: false,
    blockedPatterns: ["^Type (?<question>SHIP to continue)"],
  },
} as const;

/** What a fixture kept of its answers (its job folder's received.txt), one line each. */
export function receivedLines(dir: string): string[] {
  try {
    return readFileSync(join(dir, "received.txt"), "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * The job's row, polled through `list` until `match` holds (or the deadline). Time running out
 * names the row as it stood and the job's last screen lines, so a failure far away can be read.
 */
export async function rowWhen(
  conn: RawConnection,
  id: string,
  match: (row: Message) => boolean,
  timeoutMs = 30_000,
): Promise<Message> {
  try {
    return await pollRow(conn, id, match, timeoutMs);
  } catch (err) {
    const described = await conn.request("describe", { id, lines: 40 }).catch(() => null);
    const lines = (described?.result?.lastLines as string[] | undefined) ?? [];
    if (lines.length > 0)
      (err as Error).message += `\n# its screen:\n${lines.map((l) => `#   ${l}`).join("\n")}`;
    throw err;
  }
}

function pollRow(conn: RawConnection, id: string, match: (row: Message) => boolean, timeoutMs: number) {
  return waitFor(
    `a row of ${id} that matches`,
    async () => {
      const rows = (await conn.request("list")).result.rows as Message[];
      const row = rows.find((r) => r.id === id);
      if (!row) throw new Error("no such row");
      if (match(row)) return row;
      // Not yet: the row as it stands is named if time runs out.
      const { lifecycle, state, status, waitingFor, summary, question, choices } = row;
      throw new Error(JSON.stringify({ lifecycle, state, status, waitingFor, summary, question, choices }));
    },
    timeoutMs,
  );
}

/** Dispatches a profile (with a task, if given) and answers its job's id and folder. */
export async function dispatchTerminal(
  daemon: TestDaemon,
  conn: RawConnection,
  profile: string,
  task?: string,
): Promise<{ id: string; dir: string }> {
  const answer = await conn.request("dispatch", { profile, cwd: daemon.home, ...(task ? { task } : {}) });
  if (!answer.ok) throw new Error(`dispatch ${profile}: ${answer.code}: ${answer.error}`);
  const id = answer.result.id as string;
  return { id, dir: join(daemon.stateDir, "jobs", id) };
}
