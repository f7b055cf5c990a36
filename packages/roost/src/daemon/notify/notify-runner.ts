import { spawn } from "node:child_process";
import type { NotifyEvent } from "../../protocol/index.js";

/** The most notify commands running at once; the next wait their turn. */
const RUNNING_AT_ONCE = 4;
/** The most waiting their turn: past it an event is dropped, and the log says so. */
const QUEUED_AT_MOST = 1000;
/** How long a notify command may run before it is killed. */
const RUN_AT_MOST_MS = 30_000;

/** How one run went: its exit code, or why it did not run or finish. */
export interface NotifyOutcome {
  code: number | null;
  error: string | null;
}

interface Queued {
  command: string[];
  event: NotifyEvent;
  done(outcome: NotifyOutcome): void;
}

/**
 * Runs the person's notify command for an event: the event as one JSON line on its standard input
 * and in `ROOST_NOTIFY_*` variables. Never awaited by what changes a job: each run is a child
 * process of its own (in a process group of its own), a few at a time, killed when it runs too long
 * or when the daemon stops, its failure logged.
 */
export class NotifyRunner {
  private running = 0;
  private readonly queue: Queued[] = [];
  /** Each running command's group, to end with the daemon. */
  private readonly groups = new Set<number>();
  private closed = false;

  constructor(private readonly log: (line: string) => void) {}

  run(command: string[], event: NotifyEvent): Promise<NotifyOutcome> {
    return new Promise((done) => {
      if (this.closed) {
        done({ code: null, error: "the daemon stops" });
        return;
      }
      if (this.queue.length >= QUEUED_AT_MOST) {
        this.log(
          `roost: notify: ${QUEUED_AT_MOST} events wait already; ${event.event} of ${event.name} dropped`,
        );
        done({ code: null, error: "too many notifications waiting" });
        return;
      }
      this.queue.push({ command, event, done });
      this.next();
    });
  }

  /** The daemon stops: what waits is dropped, what runs is ended (SIGTERM to its group). */
  close(): void {
    this.closed = true;
    for (const item of this.queue.splice(0)) item.done({ code: null, error: "the daemon stops" });
    for (const group of this.groups) signalGroup(group, "SIGTERM");
  }

  private next(): void {
    if (this.running >= RUNNING_AT_ONCE) return;
    const item = this.queue.shift();
    if (!item) return;
    this.running++;
    this.start(item, (outcome) => {
      this.running--;
      if (outcome.error)
        this.log(`roost: notify: ${item.event.event} of ${item.event.name}: ${outcome.error}`);
      item.done(outcome);
      this.next();
    });
  }

  private start({ command, event }: Queued, finish: (outcome: NotifyOutcome) => void): void {
    const [program, ...args] = command as [string, ...string[]];
    let settled = false;
    const settle = (outcome: NotifyOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (group !== undefined) this.groups.delete(group);
      finish(outcome);
    };
    const child = spawn(program, args, {
      stdio: ["pipe", "ignore", "pipe"],
      env: { ...process.env, ...notifyEnvironment(event) },
      detached: true,
    });
    const group = child.pid;
    if (group !== undefined) this.groups.add(group);
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk;
    });
    // A command that reads nothing closes its input early: that is no failure.
    child.stdin.on("error", () => {});
    child.stdin.end(`${JSON.stringify(event)}\n`);
    const timer = setTimeout(() => {
      if (group !== undefined) signalGroup(group, "SIGKILL");
      settle({ code: null, error: `${program} ran past ${RUN_AT_MOST_MS / 1000} s and was killed` });
    }, RUN_AT_MOST_MS);
    timer.unref();
    child.on("error", (error) => settle({ code: null, error: `${program} could not run: ${error.message}` }));
    child.on("close", (code, signal) =>
      settle(
        code === 0
          ? { code, error: null }
          : {
              code,
              error: `${program} exited ${code ?? signal}${stderr ? `: ${stderr.trim().slice(0, 500)}` : ""}`,
            },
      ),
    );
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

/** The event's fields as variables, for a command that reads no standard input. */
export function notifyEnvironment(event: NotifyEvent): Record<string, string> {
  return {
    ROOST_NOTIFY_EVENT: event.event,
    ROOST_NOTIFY_ID: event.id,
    ROOST_NOTIFY_NAME: event.name,
    ROOST_NOTIFY_PROFILE: event.profile,
    ROOST_NOTIFY_CWD: event.cwd,
    ROOST_NOTIFY_TEXT: event.text,
    ROOST_NOTIFY_AT: event.at,
  };
}
