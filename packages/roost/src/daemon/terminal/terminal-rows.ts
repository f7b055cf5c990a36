/**
 * The rows of jobs read from their screens: terminal agents always, protocol agents until their
 * first report. Fed by the process host's screen events (no polling); `status` is busy while output
 * flows and idle after a quiet period, told by a timer; row events go out when the reading changes,
 * the row text at most every SUMMARY_INTERVAL_MS.
 */
import { emptyReport, type Report } from "../../protocol/index.js";
import type { ScreenSnapshot } from "../host/api.js";
import type { Job } from "../job.js";
import type { DaemonState } from "../state.js";
import { blockedPatternsOf } from "./blocked-patterns.js";
import { readScreen, type ScreenReading } from "./screen-reading.js";
import { setScreenReport } from "./screen-report.js";

/** No output for this long and the agent is idle. */
export const QUIET_MS = Number(process.env.ROOST_TERMINAL_QUIET_MS) || 1000;
/** A row whose text alone changes is told at most this often (state and status changes at once). */
const SUMMARY_INTERVAL_MS = 200;
/** A job started for a reply is ready for it after its first output and this much quiet. */
const READY_QUIET_MS = 300;

interface Watched {
  job: Job;
  screen: ScreenSnapshot | null;
  reading: ScreenReading | null;
  busy: boolean;
  /** Output seen since the job (re)started: readiness needs some. */
  outputSeen: boolean;
  startedOutputAt: number;
  quietTimer: NodeJS.Timeout | null;
  summaryTimer: NodeJS.Timeout | null;
  lastToldAt: number;
  report: Report | null;
  ready: (() => void)[];
}

export class TerminalRows {
  private readonly watched = new Map<string, Watched>();

  constructor(private readonly state: DaemonState) {}

  /** The last screen seen (for typing: bracketed paste; for picking a menu's number). */
  lastReading(job: Job): { screen: ScreenSnapshot | null; reading: ScreenReading | null } {
    const w = this.watched.get(job.id);
    return { screen: w?.screen ?? null, reading: w?.reading ?? null };
  }

  /** A new screen from the host. */
  screen(job: Job, screen: ScreenSnapshot): void {
    const w = this.entry(job);
    const fresh = w.screen === null || screen.lastOutputAt !== w.screen.lastOutputAt;
    w.screen = screen;
    if (job.report !== null) return;
    if (fresh && screen.lastOutputAt > w.startedOutputAt) w.outputSeen = true;
    const reading = readScreen(screen, blockedPatternsOf(this.state.paths.config, job.profile));
    w.reading = reading;
    const quietFor = Date.now() - screen.lastOutputAt;
    w.busy = quietFor < QUIET_MS;
    if (w.quietTimer) clearTimeout(w.quietTimer);
    w.quietTimer = null;
    if (w.busy) {
      w.quietTimer = setTimeout(() => {
        w.quietTimer = null;
        w.busy = false;
        this.update(w);
      }, QUIET_MS - quietFor);
    }
    this.update(w);
    this.checkReady(w);
  }

  /** The job's process ended: it asks nothing any more, and is not busy. */
  exited(job: Job): void {
    const w = this.watched.get(job.id);
    if (!w) return;
    this.clearTimers(w);
    w.busy = false;
    if (w.reading) w.reading = { ...w.reading, question: null, choices: [], answers: [] };
    this.update(w);
  }

  /** The job starts (again): readiness waits for its new output. */
  starting(job: Job): void {
    const w = this.entry(job);
    w.outputSeen = false;
    w.startedOutputAt = w.screen?.lastOutputAt ?? 0;
  }

  /**
   * Resolves once a (re)started job can take typed text: it printed and then went quiet, or it shows
   * a prompt; or after `timeoutMs` anyway (a program that prints nothing reads its input all the same).
   */
  whenReady(job: Job, timeoutMs = 10_000): Promise<void> {
    const w = this.entry(job);
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      w.ready.push(done);
      this.checkReady(w);
    });
  }

  removed(id: string): void {
    const w = this.watched.get(id);
    if (!w) return;
    this.clearTimers(w);
    for (const wake of w.ready.splice(0)) wake();
    this.watched.delete(id);
  }

  private entry(job: Job): Watched {
    let w = this.watched.get(job.id);
    if (!w || w.job !== job) {
      w = {
        job,
        screen: null,
        reading: null,
        busy: false,
        outputSeen: false,
        startedOutputAt: 0,
        quietTimer: null,
        summaryTimer: null,
        lastToldAt: 0,
        report: null,
        ready: [],
      };
      this.watched.set(job.id, w);
    }
    return w;
  }

  private checkReady(w: Watched): void {
    if (w.ready.length === 0 || w.screen === null) return;
    const prompt = w.reading?.question != null;
    const quietFor = Date.now() - w.screen.lastOutputAt;
    if (prompt || (w.outputSeen && quietFor >= READY_QUIET_MS)) {
      for (const wake of w.ready.splice(0)) wake();
      return;
    }
    if (w.outputSeen) {
      // The screen event of the quiet does not come (nothing changes): a timer looks again.
      setTimeout(() => this.checkReady(w), READY_QUIET_MS - quietFor + 5).unref();
    }
  }

  private update(w: Watched): void {
    const next = this.toReport(w);
    const before = w.report;
    if (before && sameReport(before, next)) return;
    const onlyText =
      before !== null &&
      before.state === next.state &&
      before.status === next.status &&
      before.question === next.question;
    const wait = w.lastToldAt + SUMMARY_INTERVAL_MS - Date.now();
    if (onlyText && wait > 0) {
      w.summaryTimer ??= setTimeout(() => {
        w.summaryTimer = null;
        this.update(w);
      }, wait);
      return;
    }
    if (w.summaryTimer) clearTimeout(w.summaryTimer);
    w.summaryTimer = null;
    w.report = next;
    setScreenReport(w.job, next);
    w.lastToldAt = Date.now();
    if (this.state.jobs.get(w.job.id) !== w.job) return;
    // Kept with the job's next save: the row has a text at once after a restart of the daemon.
    w.job.screenSummary = next.summary;
    this.state.changed(w.job);
  }

  private toReport(w: Watched): Report {
    const report = emptyReport();
    const reading = w.reading;
    report.summary = reading?.summary ?? null;
    if (reading?.question != null) {
      report.state = "blocked";
      report.status = "waiting";
      report.waitingFor = "question";
      report.question = reading.question;
      report.choices = reading.choices;
    } else {
      report.status = w.busy ? "busy" : "idle";
    }
    return report;
  }

  private clearTimers(w: Watched): void {
    if (w.quietTimer) clearTimeout(w.quietTimer);
    if (w.summaryTimer) clearTimeout(w.summaryTimer);
    w.quietTimer = null;
    w.summaryTimer = null;
  }
}

function sameReport(a: Report, b: Report): boolean {
  return (
    a.state === b.state &&
    a.status === b.status &&
    a.summary === b.summary &&
    a.question === b.question &&
    a.choices.length === b.choices.length &&
    a.choices.every((c, i) => c === b.choices[i])
  );
}

const byState = new WeakMap<DaemonState, TerminalRows>();

/** The daemon's terminal rows (one per daemon state). */
export function terminalRowsOf(state: DaemonState): TerminalRows {
  let rows = byState.get(state);
  if (!rows) {
    const created = new TerminalRows(state);
    state.jobWatchers.push({ changed: () => {}, removed: (id) => created.removed(id) });
    byState.set(state, created);
    rows = created;
  }
  return rows;
}
