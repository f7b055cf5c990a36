import { type ChildProcess, spawn } from "node:child_process";

/** How much of a failed client's stderr a record keeps. */
const STDERR_TAIL_CHARS = 4000;
/** After the run ends, how long the client has to exit on its own before it is stopped. */
const EXIT_GRACE_MS = 5000;

export interface ClientTarget {
  url: string;
  runId: string;
  agents: readonly string[];
  scenario: string;
  seed: number;
  trial: number;
}

export interface ClientExit {
  exit_code: number | null;
  signal: string | null;
  stderr?: string;
}

/**
 * The process a remote mix starts for one run to play its remote agents. It learns where to play
 * from its environment (WARREN_URL, WARREN_RUN_ID, WARREN_AGENTS comma-separated, WARREN_SCENARIO,
 * WARREN_SEED, WARREN_TRIAL) or from "{url}", "{run}" and "{agents}" written in its argv.
 */
export class RemoteClient {
  /** Resolves when the process has exited (or could not start). */
  readonly exited: Promise<ClientExit>;
  private readonly child: ChildProcess;
  private stderr = "";

  constructor(command: readonly string[], target: ClientTarget) {
    const fill = (arg: string): string =>
      arg
        .replaceAll("{url}", target.url)
        .replaceAll("{run}", target.runId)
        .replaceAll("{agents}", target.agents.join(","));
    const [program, ...args] = command.map(fill);
    this.child = spawn(program!, args, {
      stdio: ["ignore", "ignore", "pipe"],
      env: {
        ...process.env,
        WARREN_URL: target.url,
        WARREN_RUN_ID: target.runId,
        WARREN_AGENTS: target.agents.join(","),
        WARREN_SCENARIO: target.scenario,
        WARREN_SEED: String(target.seed),
        WARREN_TRIAL: String(target.trial),
      },
    });
    this.child.stderr!.setEncoding("utf8");
    this.child.stderr!.on("data", (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
    this.exited = new Promise((resolve) => {
      this.child.once("error", (error) => {
        resolve({ exit_code: null, signal: null, stderr: `could not start ${program}: ${error.message}` });
      });
      this.child.once("close", (code, signal) => {
        const failed = code !== 0;
        resolve({ exit_code: code, signal, ...(failed && this.stderr ? { stderr: this.stderr } : {}) });
      });
    });
  }

  /** Waits for the client to exit after its run ended, stopping it if it lingers. */
  async finish(): Promise<ClientExit> {
    const timer = setTimeout(() => this.child.kill("SIGKILL"), EXIT_GRACE_MS);
    const exit = await this.exited;
    clearTimeout(timer);
    return exit;
  }
}
