import { type ChildProcess, spawn } from "node:child_process";
import { roostCommand } from "../../home/roost-command.js";
import { WEB_SUPERVISED_ENV, type WebSettings } from "../../home/web-settings.js";

/** The first wait before `roost web` is started again; each quick end doubles it, up to the last. */
const RESTART_FIRST_MS = 500;
const RESTART_MOST_MS = 30_000;
/** A run this long was a good one: the next end waits the first wait again. */
const STEADY_MS = 10_000;
/** How long `roost web` has to end after SIGTERM before it is killed. */
const STOP_PATIENCE_MS = 5_000;

/**
 * `roost web` kept running beside the daemon (`"web": {"enabled": true}` in roost.json): a child
 * process of its own, a client of the daemon like any other, so that the daemon itself serves no
 * HTTP. Started again when it ends, after a wait that grows while it keeps ending quickly; ended
 * with the daemon. Its standard output (the address, with the token) is not read; its standard
 * error (why it could not listen) goes to the daemon's log.
 */
export class WebProcess {
  private child: ChildProcess | null = null;
  private timer: NodeJS.Timeout | undefined;
  private wait = RESTART_FIRST_MS;
  private stopped = false;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    private readonly home: string,
    private readonly settings: WebSettings,
    private readonly log: (line: string) => void,
  ) {}

  start(): void {
    if (this.stopped) return;
    const { port, host } = this.settings;
    const startedAt = Date.now();
    const child = spawn(
      process.execPath,
      [...roostCommand(), "web", "--port", String(port), "--host", host],
      {
        // A group of its own: a Ctrl-C to a foreground daemon's terminal is the daemon's to pass on.
        detached: true,
        stdio: ["pipe", "ignore", "pipe"],
        env: { ...process.env, ROOST_HOME: this.home, [WEB_SUPERVISED_ENV]: "1" },
      },
    );
    this.child = child;
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    child.stdin?.on("error", () => {});
    child.on("error", (error) => this.log(`roost: web: roost web could not run: ${error.message}`));
    this.exited = new Promise((resolve) =>
      child.once("close", (code, signal) => {
        resolve();
        this.child = null;
        if (this.stopped) return;
        if (Date.now() - startedAt >= STEADY_MS) this.wait = RESTART_FIRST_MS;
        this.log(
          `roost: web: roost web ended (${signal ?? `exit code ${code}`})${stderr ? `: ${stderr.trim()}` : ""}; starting it again in ${this.wait} ms`,
        );
        this.timer = setTimeout(() => this.start(), this.wait);
        this.wait = Math.min(this.wait * 2, RESTART_MOST_MS);
      }),
    );
  }

  /** Ends `roost web` (SIGTERM, then SIGKILL past the patience) and starts it no more. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const child = this.child;
    if (!child?.pid) return;
    signalGroup(child.pid, "SIGTERM");
    const patience = setTimeout(() => signalGroup(child.pid!, "SIGKILL"), STOP_PATIENCE_MS);
    await this.exited;
    clearTimeout(patience);
  }
}

/** Signals a process group that may be gone already. */
function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch {
    // Gone already.
  }
}
