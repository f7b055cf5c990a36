import type { DaemonState } from "../jobs/daemon-state.js";
import { isLive, type Job } from "../jobs/job.js";
import { screenReportOf } from "../terminal/screen-report.js";
import type { EventsFeed } from "./events-feed.js";

/** What a job asks, from its report or its screen. */
function askedBy(job: Job): string {
  const report = job.report ?? screenReportOf(job);
  return report?.question ?? report?.summary ?? "";
}

interface Seen {
  name: string;
  lifecycle: string;
  state: string | null;
  restarts: number;
}

/** Report states worth a line in the feed: the stops (a question, done, failed). */
const STOPS = new Set(["blocked", "done", "failed"]);

/**
 * Puts the jobs' lives in the events feed (kind `job`): `start` (a job starts, or starts again
 * after it had ended), `restart` (after a crash), `state` (it asks, is done or failed, by its
 * report), `end` (stopped, failed, done, or its process ended), `remove`. Row text changes and
 * reports that change nothing that matters are left out.
 */
export class JobEvents {
  private readonly seen = new Map<string, Seen>();

  constructor(
    state: DaemonState,
    private readonly feed: EventsFeed,
  ) {
    for (const job of state.jobs.values()) this.seen.set(job.id, this.snapshot(job));
    feed.add({
      kind: "daemon",
      why: "start",
      text: `roost started (${state.jobs.size} jobs)`,
      who: "roost",
      whoId: null,
      jobs: [],
    });
  }

  private snapshot(job: Job): Seen {
    return {
      name: job.name,
      lifecycle: job.lifecycle,
      // A terminal agent's state is read from its screen: its prompts are stops too.
      state: (job.report ?? screenReportOf(job))?.state ?? null,
      restarts: job.restarts,
    };
  }

  private add(job: Job, why: string, text: string): void {
    this.feed.add({
      kind: "job",
      why,
      text: `${job.name}: ${text}`,
      who: job.name,
      whoId: job.id,
      jobs: [job.id],
    });
  }

  changed(job: Job): void {
    const before = this.seen.get(job.id);
    const now = this.snapshot(job);
    this.seen.set(job.id, now);
    if (!before) {
      this.add(
        job,
        "start",
        `started (${job.profile})${job.parentSession ? `, spawned by ${job.parentSession}` : ""}`,
      );
      return;
    }
    if (now.restarts > before.restarts) this.add(job, "restart", `restarted after a crash (${now.restarts})`);
    else if (before.lifecycle === "running" && now.lifecycle === "starting")
      this.add(job, "restart", "respawned");
    else if (
      isLive(job) &&
      before.lifecycle !== now.lifecycle &&
      !["starting", "running"].includes(before.lifecycle)
    )
      this.add(job, "start", `started again (was ${before.lifecycle})`);
    if (before.lifecycle !== now.lifecycle && !isLive(job))
      this.add(job, "end", job.lifecycle === "failed" && job.error ? `failed: ${job.error}` : job.lifecycle);
    else if (now.state !== before.state && now.state !== null && STOPS.has(now.state) && isLive(job))
      this.add(job, "state", now.state === "blocked" ? `asks: ${askedBy(job)}` : now.state);
  }

  removed(id: string): void {
    const before = this.seen.get(id);
    this.seen.delete(id);
    this.feed.add({
      kind: "job",
      why: "remove",
      text: `${before?.name ?? id}: removed`,
      who: "user",
      whoId: null,
      jobs: [id],
    });
  }
}
