import type { Job } from "../jobs/job.js";

/**
 * What the person's ops ask of the budgets before they give a session work: a `stop` budget that
 * counts it and is spent refuses them with `over_budget`, naming the budget (`budgets.ts`).
 */
export interface BudgetGate {
  /** A reply to the session, or its respawn (`fresh`: a new conversation, whose own spend is none). */
  refuseSpent(job: Job, nothingDone: string, fresh?: boolean): void;
  /** A new session of the profile. */
  refuseNewSession(profile: string): void;
}
