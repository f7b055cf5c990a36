import { readNotifySettings } from "../../home/notify-settings.js";
import { type NotifyKind, notifyEvent, notifyKindOf, RoostError } from "../../protocol/index.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import type { Job } from "../jobs/job.js";
import { rowMoment, toRow } from "../jobs/job-row.js";
import { type NotifyOutcome, NotifyRunner } from "./notify-runner.js";

interface Moment {
  kind: NotifyKind | null;
  /** Set while the row has not held its moment for the debounce yet. */
  timer: NodeJS.Timeout | null;
}

/**
 * Tells the person's `notify.command` when a session comes to a moment (starts waiting, fails,
 * finishes): once per transition, after the row has held it for the debounce, so a row that only
 * churns (its screen redrawn, its summary changed, waiting for a blink) is told of once or never.
 * What is so when the daemon starts is no news. A budget passed is told as it happens (`budgets.ts`
 * decides when).
 */
export class Notifier {
  private readonly moments = new Map<string, Moment>();
  private readonly runner: NotifyRunner;

  constructor(
    private readonly state: DaemonState,
    log: (line: string) => void,
  ) {
    this.runner = new NotifyRunner(log);
    for (const job of state.jobs.values())
      this.moments.set(job.id, { kind: notifyKindOf(rowMoment(job)), timer: null });
  }

  jobChanged(job: Job): void {
    const kind = notifyKindOf(rowMoment(job));
    const moment = this.moments.get(job.id) ?? { kind: null, timer: null };
    this.moments.set(job.id, moment);
    if (kind === moment.kind) return;
    moment.kind = kind;
    if (moment.timer) clearTimeout(moment.timer);
    moment.timer = null;
    if (kind === null) return;
    const settings = readNotifySettings(this.state.paths);
    if (!settings.command) return;
    moment.timer = setTimeout(() => {
      moment.timer = null;
      const now = this.state.jobs.get(job.id);
      if (!now || moment.kind !== kind) return;
      void this.runner.run(settings.command as string[], notifyEvent(toRow(now), kind, this.state.now()));
    }, settings.debounceMs);
    moment.timer.unref();
  }

  /** A session passed a budget (`text` says which, and whether it was stopped): told at once, the caller tells once. */
  budgetPassed(job: Job, text: string): void {
    const { command } = readNotifySettings(this.state.paths);
    if (command) void this.runner.run(command, notifyEvent(toRow(job), "budget", this.state.now(), text));
  }

  jobRemoved(id: string): void {
    const moment = this.moments.get(id);
    if (moment?.timer) clearTimeout(moment.timer);
    this.moments.delete(id);
  }

  /** The daemon stops: no more notifications, and the commands still running end. */
  close(): void {
    for (const moment of this.moments.values()) if (moment.timer) clearTimeout(moment.timer);
    this.moments.clear();
    this.runner.close();
  }

  /** `roost notify test`: a sample event through the command, answered when it has run. */
  async test(): Promise<NotifyOutcome & { command: string[] }> {
    const { command } = readNotifySettings(this.state.paths);
    if (!command)
      throw new RoostError(
        "bad_request",
        `no notify command: set "notify": {"command": [argv]} in ${this.state.paths.config}`,
      );
    const event = {
      event: "test" as const,
      id: "test",
      name: "roost",
      profile: "",
      cwd: this.state.paths.home,
      text: "a sample notification from roost notify test",
      question: null,
      choices: [],
      at: this.state.now(),
    };
    return { command, ...(await this.runner.run(command, event)) };
  }
}
