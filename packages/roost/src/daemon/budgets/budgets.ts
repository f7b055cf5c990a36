/**
 * Holds the sessions to roost.json's budgets. At each change of a session's usage (its program's
 * record read and priced, its report), what its count grew by goes to the day's, and each budget
 * that counts the session is looked at: a per-session one by the session's own spend, a per-day
 * one by the day's. Past a `stop` budget a live session is stopped (as `roost stop` does), the
 * reason on its row; past a `notify` one the person is told, once per crossing. Both go in the
 * events feed and through the notify command. Only the session whose usage changed is looked at:
 * a check costs the number of budgets, whatever the size of the fleet.
 */
import { type Budget, readBudgets } from "../../home/budgets.js";
import { RoostError } from "../../protocol/index.js";
import type { EventsFeed } from "../feed/events-feed.js";
import type { DaemonState, JobWatcher } from "../jobs/daemon-state.js";
import { isLive, type Job } from "../jobs/job.js";
import { jobUsage } from "../jobs/job-row.js";
import type { Supervisor } from "../jobs/supervisor.js";
import type { Notifier } from "../notify/notifier.js";
import type { Store } from "../store/store.js";
import type { BudgetGate } from "./budget-gate.js";
import {
  budgetKey,
  Crossings,
  grownBy,
  highest,
  isNothing,
  NO_SPEND,
  passedText,
  type Spend,
  type Standing,
  spendOf,
  standings,
} from "./budget-rules.js";
import { DayUsage } from "./day-usage.js";

/** roost.json's budgets are read at most this often: an edit applies within it. */
const READ_EVERY_MS = 1000;

export interface BudgetDeps {
  state: DaemonState;
  store: Store;
  feed: EventsFeed;
  notifier: Notifier;
  supervisor: Supervisor;
  log: (line: string) => void;
  /** The time (ms), the day is told by. */
  now: () => number;
}

/** The conversation a job's usage is of: a fresh one counts from nothing. */
function conversationOf(job: Job): string {
  if (job.report?.usage) return `report ${job.report.session ?? ""}`;
  const record = job.conversation;
  return record ? `${record.program} ${record.sessionId ?? record.file ?? ""}` : "";
}

/** What a refusal says can be done about the budget. */
function wayOn(standing: Standing, job: Job | null): string {
  if (standing.budget.per === "day") return "raise it there, or wait for the next day";
  return `raise it there, or start a new conversation (roost respawn ${job?.name ?? "NAME"} --fresh)`;
}

export class Budgets implements JobWatcher, BudgetGate {
  /** Per session: what was counted of it toward the day, and of which conversation. */
  private readonly counted = new Map<string, { conversation: string; spend: Spend }>();
  private readonly crossings = new Crossings();
  /** Sessions being stopped for a budget: one stop each. */
  private readonly stopping = new Set<string>();
  private readonly day: DayUsage;
  private lastDay: string;
  /** roost.json's budgets as last read, each with the key its crossings are remembered by. */
  private read: { at: number; budgets: Budget[]; keys: string[]; bad: boolean } = {
    at: 0,
    budgets: [],
    keys: [],
    bad: false,
  };

  constructor(private readonly deps: BudgetDeps) {
    this.day = new DayUsage(deps.store, deps.now);
    this.lastDay = this.day.today();
    // What is so when the daemon starts is no news: each session counted as the store left it, the
    // crossings it is past already told.
    for (const job of deps.state.jobs.values()) {
      const spend = spendOf(jobUsage(job));
      this.counted.set(job.id, { conversation: conversationOf(job), spend });
      this.news(job, spend);
    }
  }

  changed(job: Job): void {
    const usage = jobUsage(job);
    if (usage === null) return;
    const spend = spendOf(usage);
    const conversation = conversationOf(job);
    const last = this.counted.get(job.id);
    const counted = last?.conversation === conversation ? last.spend : NO_SPEND;
    const added = grownBy(counted, spend);
    if (isNothing(added)) return;
    this.counted.set(job.id, { conversation, spend: highest(counted, spend) });
    this.day.add(job.profile, added);
    const today = this.day.today();
    if (today !== this.lastDay) {
      this.crossings.forget(`day ${this.lastDay}`);
      this.lastDay = today;
    }
    for (const standing of this.news(job, spend)) {
      if (standing.budget.action === "notify") this.tell(job, "notify", passedText(standing));
      else if (isLive(job)) this.stop(job, standing);
    }
  }

  removed(id: string): void {
    this.counted.delete(id);
    this.crossings.forget(id);
    this.stopping.delete(id);
  }

  refuseSpent(job: Job, nothingDone: string, fresh = false): void {
    const spent = this.spent(job.profile, fresh ? NO_SPEND : spendOf(jobUsage(job)));
    if (spent)
      throw new RoostError(
        "over_budget",
        `${job.name} is ${passedText(spent)}: ${wayOn(spent, job)}; ${nothingDone}`,
      );
  }

  refuseNewSession(profile: string): void {
    const spent = this.spent(profile, NO_SPEND);
    if (spent)
      throw new RoostError(
        "over_budget",
        `a new ${profile} session would be ${passedText(spent)}: ${wayOn(spent, null)}; nothing was started`,
      );
  }

  /** The first `stop` budget a session of `profile` with this spend is past. */
  private spent(profile: string, session: Spend): Standing | undefined {
    return this.standings(profile, session).find((s) => s.budget.action === "stop" && s.passed);
  }

  private standings(profile: string, session: Spend): Standing[] {
    return standings(this.current().budgets, profile, session, (p) => this.day.of(p));
  }

  /**
   * What the session's budgets say now that is news: each `stop` one it is past, and each
   * `notify` one it has just crossed (one it came back under is forgotten, to be told anew).
   */
  private news(job: Job, spend: Spend): Standing[] {
    const { keys } = this.current();
    return this.standings(job.profile, spend).filter(({ budget, index, passed }) => {
      if (budget.action === "stop") return passed;
      const scope = budget.per === "session" ? job.id : `day ${this.lastDay}`;
      return this.crossings.crossed(scope, keys[index]!, passed);
    });
  }

  /** Stopped once, as `roost stop` does: the reason on its row, in the feed and to the person. */
  private stop(job: Job, standing: Standing): void {
    if (this.stopping.has(job.id)) return;
    this.stopping.add(job.id);
    const reason = `stopped: ${passedText(standing)}`;
    job.error = reason;
    this.tell(job, "stop", reason);
    const { state, supervisor, log } = this.deps;
    const failed = (what: string) => (err: unknown) =>
      log(`roost: job ${job.id}: ${what} for its budget failed: ${(err as Error)?.message ?? err}`);
    state.save(job).catch(failed("keeping the reason it is stopped"));
    supervisor
      .stop(job)
      .catch((err) => {
        // Not stopped (the host away): its row does not say so, and its next usage tries again.
        if (isLive(job) && job.error === reason) {
          job.error = null;
          state.changed(job);
        }
        failed("stopping it")(err);
      })
      .finally(() => this.stopping.delete(job.id));
  }

  private tell(job: Job, why: "stop" | "notify", text: string): void {
    this.deps.feed.add({
      kind: "budget",
      why,
      text: `${job.name}: ${text}`,
      who: "roost",
      whoId: null,
      jobs: [job.id],
    });
    this.deps.notifier.budgetPassed(job, text);
  }

  /** roost.json's budgets, read at most once a second; while they do not read, the last good ones hold. */
  private current(): { budgets: Budget[]; keys: string[] } {
    const now = Date.now();
    if (now - this.read.at < READ_EVERY_MS) return this.read;
    const budgets = readBudgets(this.deps.state.paths.config);
    if (budgets === null && !this.read.bad)
      this.deps.log(
        "roost: roost.json's budgets do not read (roost doctor names the key): the last good ones hold",
      );
    this.read =
      budgets === null
        ? { ...this.read, at: now, bad: true }
        : { at: now, budgets, keys: budgets.map(budgetKey), bad: false };
    return this.read;
  }
}
