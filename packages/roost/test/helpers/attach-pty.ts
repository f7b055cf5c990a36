import { type IPty, spawn } from "@lydell/node-pty";
import { CLI } from "./built-cli.js";
import { waitFor } from "./daemon.js";

/** `roost attach ID` run in a pseudo-terminal of the test's own: what it shows, keys typed into it. */
export interface AttachPty {
  pty: IPty;
  /** Everything it wrote so far. */
  readonly output: string;
  /** Waits until its output holds `text` (after `from` characters). */
  sees(text: string, from?: number, timeoutMs?: number): Promise<void>;
  /** Resolves with its exit code. */
  exited: Promise<number>;
}

export function runAttach(home: string, id: string, size = { cols: 100, rows: 30 }): AttachPty {
  const pty = spawn(process.execPath, [CLI, "attach", id], {
    name: "xterm-256color",
    cols: size.cols,
    rows: size.rows,
    cwd: process.cwd(),
    env: { ...(process.env as Record<string, string>), ROOST_HOME: home },
  });
  let output = "";
  pty.onData((data) => {
    output += data;
  });
  const exited = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
  return {
    pty,
    get output() {
      return output;
    },
    sees: (text, from = 0, timeoutMs = 20_000) =>
      waitFor(
        `${JSON.stringify(text)} on the attached terminal (it shows ${JSON.stringify(output.slice(-300))})`,
        async () => (output.indexOf(text, from) !== -1 ? true : undefined),
        timeoutMs,
      ).then(() => {}),
    exited,
  };
}
