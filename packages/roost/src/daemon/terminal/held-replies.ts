/**
 * A held reply: a terminal agent's reply that came while the agent asked nothing is never typed (it
 * would answer whatever the agent asks next, unseen by the person), and any agent's answer to a
 * question it no longer asks is not given to the new one; it is held, shown in the row, and sent as
 * the answer to what it asks only when the person says so (or dropped). One per job, kept in its
 * folder (`held-reply.json`) so a restart of the daemon keeps it.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HeldReply } from "../../protocol/index.js";
import type { Job } from "../jobs/job.js";

export interface Held extends HeldReply {
  requestId: string | null;
}

const held = new WeakMap<Job, Held | null>();

const fileOf = (job: Job) => join(job.dir, "held-reply.json");

export function heldReplyOf(job: Job): Held | null {
  let known = held.get(job);
  if (known === undefined) {
    try {
      known = JSON.parse(readFileSync(fileOf(job), "utf8")) as Held;
    } catch {
      known = null;
    }
    held.set(job, known);
  }
  return known;
}

/** Holds `reply` for the job, in place of the one it held. */
export function holdReply(job: Job, reply: Held): void {
  writeFileSync(fileOf(job), JSON.stringify(reply), { mode: 0o600 });
  held.set(job, reply);
}

export function dropHeldReply(job: Job): void {
  rmSync(fileOf(job), { force: true });
  held.set(job, null);
}
