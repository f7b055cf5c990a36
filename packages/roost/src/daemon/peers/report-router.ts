import {
  type HandbackArgs,
  type HandbackOutcome,
  type HandbackResult,
  PEER_LIMITS,
  RoostError,
  type RunCause,
  type WorktreeRow,
  worktreeLine,
} from "../../protocol/index.js";
import type { Caller } from "../caller.js";
import type { Job } from "../jobs/job.js";
import { toRow } from "../jobs/job-row.js";
import { deliverItem } from "./deliver-item.js";
import { envelope } from "./envelope.js";
import { feedLine, type PeerContext } from "./peer-context.js";
import { jobForSession, sessionKeyOf, speakerOf } from "./sessions.js";

/** A text field, empty as good as absent. */
function text(value: string | null | undefined): string | null {
  return value === undefined || value === null || value === "" ? null : value;
}

/** The report's body: its state, and what the run came to. */
function reportBody(
  state: string,
  result: string | null,
  question: string | null,
  error: string | null,
  worktree: WorktreeRow | null,
) {
  return [
    `state: ${state}`,
    // A child in a worktree says where its work is, so the parent (or the person) can merge it.
    ...(worktree ? [`worktree: ${worktreeLine(worktree)}`] : []),
    ...(result !== null ? ["", result] : []),
    ...(question !== null ? ["", `question: ${question}`] : []),
    ...(error !== null ? ["", `error: ${error}`] : []),
  ].join("\n");
}

/** What a parent is told when its child ended without a report of its own. */
function endedBody(child: { name: string; id: string }, why: string): string {
  return `state: ended\n\n${child.name} (${child.id}) ${why}. It will not report again unless it is started anew.`;
}

/** What the reports know of a job, kept so that a removed child can still be reported on. */
interface Known {
  name: string;
  parentSession: string | null;
  lifecycle: string;
}

/**
 * Hand-back (M9b): a child's report goes to its parent: the live holder of the parent session
 * (a connected foreground session, or the parent's job), queued on the parent's job (waking it when
 * it has ended, not when it was stopped), or kept on the child and sent when the parent is back.
 * A child that is stopped, removed or gives up after crashes sends a synthetic `ended` report.
 */
export class ReportRouter {
  private readonly known = new Map<string, Known>();
  /** The children keeping a report, by parent session: every job change asks, so it is not a scan. */
  private readonly kept = new Map<string, Set<string>>();
  private retrying = false;

  constructor(private readonly pc: PeerContext) {
    for (const job of pc.state.jobs.values()) {
      this.remember(job);
      if (job.undeliveredReport) this.keep(job, job.undeliveredReport);
    }
  }

  handback(caller: Caller, args: HandbackArgs): Promise<HandbackResult> | HandbackResult {
    const { state, foreground } = this.pc;
    const self = speakerOf(state, foreground, caller);
    const child = self.job;
    if (!child?.parentSession)
      throw new RoostError("unsupported", "handback is for a spawned child: this session has no parent");
    const { state: reportState, requestId } = args;
    const result = text(args.result);
    const question = text(args.question);
    const error = text(args.error);
    const cause: RunCause = args.cause ?? "task";
    if (requestId !== undefined && child.handbackIds?.includes(requestId))
      return state.store.committed().then(() => ({ outcome: "delivered" as const, duplicate: true }));

    let outcome: HandbackOutcome;
    if (!this.reportsRun(child, cause)) outcome = "skipped";
    else
      outcome = this.route(
        child,
        reportBody(reportState, result, question, error, toRow(child).worktree ?? null),
        feedLine(result ?? question ?? error ?? reportState),
      );
    if (requestId !== undefined)
      child.handbackIds = [...(child.handbackIds ?? []), requestId].slice(-PEER_LIMITS.handbackIdsKept);
    // Saved in the same turn as the report's item: one transaction holds both.
    state.save(child);
    return state.store.committed().then(() => ({ outcome }));
  }

  /**
   * The run-cause rules: a run another agent started never reports; one the parent's message
   * started reports at most 3 times in a row; the task or the user's reply resets the count.
   */
  private reportsRun(child: Job, cause: RunCause): boolean {
    if (cause === "agent") return false;
    if (cause !== "parent") {
      child.parentRuns = 0;
      return true;
    }
    const runs = (child.parentRuns ?? 0) + 1;
    child.parentRuns = runs;
    return runs <= PEER_LIMITS.parentRunsInARow;
  }

  /** Sends a report to the child's parent now, or keeps it on the child. */
  private route(child: Job, body: string, summary: string): HandbackOutcome {
    const parentSession = child.parentSession!;
    const text = envelope({ from: child.name, id: child.id, relation: "child", kind: "report" }, body);
    const outcome = this.resend(child, text);
    this.keep(child, outcome === "kept" ? text : null);
    const holder = this.pc.foreground.bySession(parentSession);
    const parentJob = jobForSession(this.pc.state, parentSession);
    this.pc.feed.add({
      kind: "report",
      why: outcome,
      text: `${child.name} → ${holder?.name ?? parentJob?.name ?? parentSession}: ${summary}`,
      who: child.name,
      whoId: child.id,
      jobs: [child.id, ...(parentJob ? [parentJob.id] : [])],
    });
    return outcome;
  }

  /** Sends the reports kept for a parent session that is back (a foreground session or a job). */
  retryFor(parentSession: string): void {
    if (this.retrying) return;
    this.retrying = true;
    try {
      for (const id of [...(this.kept.get(parentSession) ?? [])]) {
        const child = this.pc.state.jobs.get(id);
        const text = child?.undeliveredReport;
        if (!child || !text) continue;
        this.keep(child, null);
        if (this.resend(child, text) === "kept") this.keep(child, text);
        this.pc.state.save(child);
      }
    } finally {
      this.retrying = false;
    }
  }

  /** Hands a framed report to the parent session's live holder, or its job; `kept` when neither takes it. */
  private resend(child: Job, text: string): HandbackOutcome {
    const { state, foreground } = this.pc;
    const holder = foreground.bySession(child.parentSession!);
    if (holder)
      return foreground.deliver(holder, { text, kind: "report", from: child.name, relation: "child" })
        ? "delivered"
        : "kept";
    const parentJob = jobForSession(state, child.parentSession!);
    if (parentJob?.kind !== "protocol") return "kept";
    const outcome = deliverItem(state, this.pc.supervisor, parentJob, {
      kind: "report",
      from: child.name,
      relation: "child",
      text,
    });
    return outcome === "full" || outcome === "stopped" || outcome === "not running" ? "kept" : outcome;
  }

  /** A job changed: a child that was stopped or gave up reports `ended`; a parent back takes its reports. */
  jobChanged(job: Job): void {
    const before = this.known.get(job.id);
    this.remember(job);
    if (job.parentSession && before && before.lifecycle !== job.lifecycle) {
      if (job.lifecycle === "stopped") this.ended(job, "was stopped");
      else if (job.lifecycle === "failed" && job.report?.state !== "failed")
        this.ended(job, `gave up: ${job.error ?? "it failed"}`);
    }
    const session = sessionKeyOf(job);
    if (!this.retrying && this.hasKeptFor(session)) this.retryFor(session);
  }

  jobRemoved(id: string): void {
    const known = this.known.get(id);
    this.known.delete(id);
    if (!known?.parentSession) return;
    if (known.lifecycle !== "stopped" && known.lifecycle !== "failed") {
      const gone = { id, name: known.name, parentSession: known.parentSession } as Job;
      this.route(gone, endedBody({ id, name: known.name }, "was removed"), "removed");
    }
    // A removed child keeps nothing: there is no job left to keep it on.
    this.keep({ id, parentSession: known.parentSession } as Job, null);
  }

  private ended(child: Job, why: string): void {
    this.route(child, endedBody(child, why), why);
    this.pc.state.save(child);
  }

  private hasKeptFor(session: string): boolean {
    return (this.kept.get(session)?.size ?? 0) > 0;
  }

  /** Keeps a report on the child until its parent is back (`null`: nothing kept). */
  private keep(child: Job, text: string | null): void {
    child.undeliveredReport = text;
    const session = child.parentSession;
    if (!session) return;
    const children = this.kept.get(session) ?? new Set<string>();
    if (text === null) children.delete(child.id);
    else children.add(child.id);
    if (children.size === 0) this.kept.delete(session);
    else this.kept.set(session, children);
  }

  private remember(job: Job): void {
    this.known.set(job.id, {
      name: job.name,
      parentSession: job.parentSession ?? null,
      lifecycle: job.lifecycle,
    });
  }
}
