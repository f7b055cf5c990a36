/**
 * The rows of jobs read from their screens: terminal agents always, protocol agents until their
 * first report. Fed by the process host's screen events (no polling; the host paces them, so a row
 * changes as soon as its screen does); `status` is busy while output flows and idle after a quiet
 * period, told by a timer.
 */

import { emptyReport, type Report } from "../../protocol/index.js";
import type { ScreenSnapshot } from "../host/api.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import type { Job } from "../jobs/job.js";
import { TUNING } from "../tuning.js";
import { readScreen, type ScreenReading } from "./screen-reading.js";
import { setScreenReport } from "./screen-report.js";
import { screenRulesOf } from "./screen-rules.js";

/** No output for this long and the agent is idle. */
const QUIET_MS = TUNING.terminalQuietMs;
/** A program roost knows nothing of takes text after its first output and this much quiet. */
const READY_QUIET_MS = TUNING.readyQuietMs;
/** ... or after this long when it prints nothing at all. */
const READY_SILENT_MS = TUNING.readySilentMs;
/** A prompt on a screen that keeps changing (a clock, a spinner) is typed into after this long. */
const PROMPT_UNQUIET_MS = 3000;

/** What a (re)started job shows once it settled: its input, a dialog, or nothing (it ended). */
export type Settled = "input" | "dialog" | "ended";

interface ReadingWaiter {
  match: (reading: ScreenReading, screen: ScreenSnapshot) => boolean;
  resolve: (reading: ScreenReading | null) => void;
}

interface Watched {
  job: Job;
  screen: ScreenSnapshot | null;
  reading: ScreenReading | null;
  busy: boolean;
  /** Output seen since the job (re)started: readiness needs some. */
  outputSeen: boolean;
  startedOutputAt: number;
  /** Set while busy; when it fires it looks whether output stopped (it is not set again per screen). */
  quietTimer: NodeJS.Timeout | null;
  report: Report | null;
  waiters: ReadingWaiter[];
}

export class TerminalRows {
  private readonly watched = new Map<string, Watched>();

  constructor(private readonly state: DaemonState) {}

  /** The last screen seen and its reading: what a reply meets. */
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
    const { patterns, reader } = screenRulesOf(this.state.paths.config, job.profile, job.command);
    const reading = readScreen(screen, patterns, reader);
    w.reading = reading;
    const quietFor = Date.now() - screen.lastOutputAt;
    w.busy = quietFor < QUIET_MS;
    if (w.busy) w.quietTimer ??= setTimeout(() => this.quietCheck(w), QUIET_MS - quietFor);
    this.update(w);
    this.wake(w);
  }

  /** The job's process ended: it asks nothing any more, and is not busy. */
  exited(job: Job): void {
    const w = this.watched.get(job.id);
    if (!w) return;
    this.clearTimers(w);
    w.busy = false;
    if (w.reading)
      w.reading = { ...w.reading, question: null, choices: [], dialog: null, input: null, working: false };
    this.update(w);
    for (const waiter of w.waiters.splice(0)) waiter.resolve(null);
  }

  /** The job starts (again): readiness waits for its new output. */
  starting(job: Job): void {
    const w = this.entry(job);
    w.outputSeen = false;
    w.startedOutputAt = w.screen?.lastOutputAt ?? 0;
    // The last run's screen says nothing of the new one.
    w.reading = null;
  }

  /**
   * Resolves with the reading once `match` holds for it (the last one already, or one to come), or
   * null after `timeoutMs` or when the job's process ends.
   */
  readingWhen(
    job: Job,
    match: (reading: ScreenReading, screen: ScreenSnapshot) => boolean,
    timeoutMs: number,
  ): Promise<ScreenReading | null> {
    const w = this.entry(job);
    if (w.reading && w.screen && match(w.reading, w.screen)) return Promise.resolve(w.reading);
    return new Promise((resolve) => {
      const waiter: ReadingWaiter = {
        match,
        resolve: (reading) => {
          clearTimeout(timer);
          resolve(reading);
        },
      };
      const timer = setTimeout(() => {
        w.waiters.splice(w.waiters.indexOf(waiter) >>> 0, 1);
        resolve(null);
      }, timeoutMs);
      w.waiters.push(waiter);
    });
  }

  /**
   * Resolves once a (re)started job settled: it shows its input (a known agent's prompt, a question;
   * a program roost knows nothing of: it printed and went quiet, or printed nothing for a while), or
   * a dialog (unless `throughDialogs`: then it waits until the person answered it), or it ended.
   * Never a timer alone while a dialog is up: nothing is typed into a dialog for the person. An input
   * counts once the screen has been quiet a moment: a prompt read from a screen still being drawn
   * (a dialog half replaced by the next screen) may not take text yet, and text typed there is lost.
   */
  async whenSettled(job: Job, throughDialogs: boolean): Promise<Settled> {
    const known = this.readerOf(job).prompt !== null;
    const startedAt = Date.now();
    let inputSince: number | null = null;
    const settledBy = (reading: ScreenReading, screen: ScreenSnapshot): boolean => {
      const quiet = Date.now() - screen.lastOutputAt >= READY_QUIET_MS;
      if (reading.dialog) return !throughDialogs;
      if (reading.input !== null) {
        inputSince ??= Date.now();
        return quiet || Date.now() - inputSince >= PROMPT_UNQUIET_MS;
      }
      inputSince = null;
      if (known) return false;
      const w = this.entry(job);
      return (w.outputSeen && quiet) || (!w.outputSeen && Date.now() - startedAt >= READY_SILENT_MS);
    };
    for (;;) {
      if (job.lifecycle !== "running" && job.lifecycle !== "starting") return "ended";
      // Quiet and silence make no screen event: look again now and then.
      const reading = await this.readingWhen(job, settledBy, READY_QUIET_MS);
      if (reading) return reading.dialog ? "dialog" : "input";
      if (this.watched.get(job.id)?.job !== job) return "ended";
      // A program that prints nothing has no screen to read: it reads its input all the same.
      if (!known && this.watched.get(job.id)?.reading == null && Date.now() - startedAt >= READY_SILENT_MS)
        return "input";
    }
  }

  private readerOf(job: Job) {
    return screenRulesOf(this.state.paths.config, job.profile, job.command).reader;
  }

  removed(id: string): void {
    const w = this.watched.get(id);
    if (!w) return;
    this.clearTimers(w);
    for (const waiter of w.waiters.splice(0)) waiter.resolve(null);
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
        report: null,
        waiters: [],
      };
      this.watched.set(job.id, w);
    }
    return w;
  }

  private wake(w: Watched): void {
    const { reading, screen } = w;
    if (!reading || !screen) return;
    for (const waiter of w.waiters.filter((x) => x.match(reading, screen))) {
      w.waiters.splice(w.waiters.indexOf(waiter), 1);
      waiter.resolve(reading);
    }
  }

  /** Busy until output has stopped for QUIET_MS: looked at again until it has. */
  private quietCheck(w: Watched): void {
    w.quietTimer = null;
    const quietFor = Date.now() - (w.screen?.lastOutputAt ?? 0);
    if (quietFor < QUIET_MS) {
      w.quietTimer = setTimeout(() => this.quietCheck(w), QUIET_MS - quietFor);
      return;
    }
    w.busy = false;
    this.update(w);
  }

  private update(w: Watched): void {
    const next = this.toReport(w);
    if (w.report && sameReport(w.report, next)) return;
    w.report = next;
    setScreenReport(w.job, next);
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
    } else if (reading?.input === "prompt" && givenInput(w.job)) {
      // Idle at its input once it was given something: its turn is done (as pi's worker says), its
      // last answer (or what the person refused) as the text. It asks nothing.
      report.state = "done";
      report.status = "idle";
    } else if (reading?.input === "prompt") {
      // At its input before any task: it waits for one, and asks nothing either.
      report.state = "blocked";
      report.status = "waiting";
      report.waitingFor = "first-prompt";
    } else {
      report.status = reading?.working || w.busy ? "busy" : "idle";
    }
    return report;
  }

  private clearTimers(w: Watched): void {
    if (w.quietTimer) clearTimeout(w.quietTimer);
    w.quietTimer = null;
  }
}

/** Whether the job was given a task or a typed reply (a reply takes seq 2 on, a typed task seq 1). */
function givenInput(job: Job): boolean {
  return job.task !== null || job.nextSeq > 1;
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
