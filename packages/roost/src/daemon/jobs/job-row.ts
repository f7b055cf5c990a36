import { type JobRow, type Report, type TokenUsage, tokenUsageOf } from "../../protocol/index.js";
import { conversationRow } from "../conversations/conversation.js";
import { heldReplyOf } from "../terminal/held-replies.js";
import { screenReportOf } from "../terminal/screen-report.js";
import { firstRow } from "../worktrees/worktree-status.js";
import type { Job } from "./job.js";

function rowState(job: Job, report: Report | null): JobRow["state"] {
  if (job.lifecycle === "failed") return "failed";
  if (job.lifecycle === "done") return "done";
  return report?.state ?? "working";
}

/**
 * Tokens a job used so far, as its row says them: its reports' (pi), else its program's own
 * session record's (Claude Code, Codex); null: unknown. A screen says none.
 */
export function jobUsage(job: Job): TokenUsage | null {
  return tokenUsageOf(job.report?.usage) ?? job.conversation?.usage ?? null;
}

/**
 * The few fields of its row that say what a job is doing now, for a watcher that reads no more at
 * each of its changes (building the whole row costs more than the report that changed it).
 */
export function rowMoment(job: Job): Pick<JobRow, "lifecycle" | "role" | "state" | "waitingFor"> {
  const r = job.report ?? screenReportOf(job);
  return {
    lifecycle: job.lifecycle,
    role: job.role ?? null,
    state: rowState(job, r),
    waitingFor: r?.waitingFor ?? null,
  };
}

/** The row the hub and the CLI show: derived from the job, never stored twice. */
export function toRow(job: Job): JobRow {
  // Until the agent reports (a terminal agent: always), its row is read from its screen.
  const r = job.report ?? screenReportOf(job);
  return {
    id: job.id,
    name: job.name,
    profile: job.profile,
    kind: job.kind,
    cwd: job.cwd,
    task: job.task,
    state: rowState(job, r),
    status: r?.status ?? null,
    waitingFor: r?.waitingFor ?? null,
    summary: r ? r.summary : job.screenSummary,
    question: r?.question ?? null,
    choices: r?.choices ?? [],
    tool: r?.tool ?? null,
    // Why it failed, or why roost stopped it (a budget), over what its screen or last report said.
    error:
      (job.lifecycle === "failed" || job.lifecycle === "stopped") && job.error
        ? job.error
        : (r?.error ?? job.error),
    // A terminal agent reports nothing: its program's own session record says these (Claude Code, Codex).
    model: r?.model ?? job.conversation?.model ?? null,
    thinking: r?.thinking ?? null,
    context: r?.context ?? job.conversation?.context ?? null,
    usage: jobUsage(job),
    conversation: job.conversation ? conversationRow(job.conversation) : null,
    resume: job.resume ?? null,
    lifecycle: job.lifecycle,
    reported: job.report !== null,
    connected: job.connection !== null,
    pid: job.pid,
    exitCode: job.exitCode,
    pinned: job.pinned,
    order: job.order,
    restart: job.restart,
    pending: job.pending.length,
    held: heldRow(job),
    role: job.role ?? null,
    suggested: job.suggested ?? null,
    capabilities: job.capabilities,
    agent: job.agent,
    restarts: job.restarts,
    parentSession: job.parentSession ?? null,
    rootSession: job.rootSession ?? null,
    ...(job.parentPeer ? { parent: job.parentPeer } : {}),
    worktree: job.worktree ? (job.worktreeRow ?? firstRow(job.worktree)) : null,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
}

function heldRow(job: Job): JobRow["held"] {
  const held = heldReplyOf(job);
  return held ? { text: held.text, at: held.at } : null;
}
