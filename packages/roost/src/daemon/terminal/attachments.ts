/**
 * Who is attached to which job's terminal (`roost attach`, the hub). Each attachment has a host
 * connection of its own, watching the job there: the host replays the screen and then sends the
 * output with no gap and no repeat, and the daemon passes it on to the attached connection.
 */
import { type AttachEvent, type AttachResult, type Lifecycle, RoostError } from "../../protocol/index.js";
import type { Caller } from "../caller.js";
import type { ProcessHost } from "../host/api.js";
import { connectHost } from "../host/index.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import type { Job } from "../jobs/job.js";
import { readLastScreen } from "./last-screen.js";

interface Attachment {
  caller: Caller;
  jobId: string;
  host: ProcessHost;
}

export class Attachments {
  /** Per job, in the order they attached: the first holds the keyboard. */
  private readonly byJob = new Map<string, Attachment[]>();

  constructor(private readonly state: DaemonState) {}

  async attach(caller: Caller, job: Job, size: { cols: number; rows: number } | null): Promise<AttachResult> {
    const base = { id: job.id, name: job.name, kind: job.kind, exitCode: job.exitCode };
    if (job.lifecycle !== "running") return this.ended(job, base);
    this.detach(caller, job.id);
    // Its own connection watches the one job's output: no job's screens come on it.
    const host = await connectHost({ stateDir: this.state.paths.stateDir, screens: false });
    const attachment: Attachment = { caller, jobId: job.id, host };
    let queued: AttachEvent[] | null = [];
    const send = (event: AttachEvent) => {
      if (queued) queued.push(event);
      else caller.send(event);
    };
    host.on("output", (id, data) => {
      if (id === job.id) send({ event: "terminal-output", id, data });
    });
    host.on("exit", (id, exitCode, signal) => {
      if (id !== job.id) return;
      send({ event: "terminal-end", id, exitCode, signal });
      this.drop(attachment);
    });
    host.on("lost", () => {
      send({ event: "terminal-end", id: job.id, exitCode: null, signal: null });
      this.drop(attachment);
    });
    let screen: string;
    try {
      screen = await host.watch(job.id);
    } catch (err) {
      void host.close().catch(() => {});
      // Ended between the look at its lifecycle and the watch.
      if ((err as RoostError).code === "conflict" || (err as RoostError).code === "not_found")
        return this.ended(job, base);
      throw err;
    }
    const list = this.byJob.get(job.id) ?? [];
    list.push(attachment);
    this.byJob.set(job.id, list);
    const keyboard = list[0] === attachment;
    if (keyboard && size) {
      // The attach goes on at the old size rather than fail; the log says why the program was not told.
      await host
        .resize(job.id, size.cols, size.rows)
        .catch((err) =>
          this.state.log(`roost: job ${job.id}: attach: the resize failed: ${(err as Error).message}`),
        );
    }
    // The output follows the answer with the screen, never ahead of it.
    caller.later(() => {
      const events = queued ?? [];
      queued = null;
      caller.sendEach(events);
    });
    return { ...base, ended: false, lifecycle: "running", screen, keyboard };
  }

  async input(caller: Caller, jobId: string, data: string): Promise<void> {
    const attachment = this.holder(caller, jobId);
    await attachment.host.write(jobId, data);
  }

  async resize(caller: Caller, jobId: string, cols: number, rows: number): Promise<void> {
    const attachment = this.holder(caller, jobId);
    await attachment.host.resize(jobId, cols, rows);
  }

  detach(caller: Caller, jobId: string): boolean {
    const attachment = this.byJob.get(jobId)?.find((a) => a.caller === caller);
    if (!attachment) return false;
    this.drop(attachment);
    return true;
  }

  /** The daemon shuts down: every attached terminal is told, so it does not start the daemon again. */
  shuttingDown(all: boolean): void {
    for (const [jobId, list] of this.byJob) {
      for (const attachment of list) attachment.caller.send({ event: "terminal-shutdown", id: jobId, all });
    }
  }

  /** A connection went away: every attachment it had goes. */
  callerClosed(caller: Caller): void {
    for (const list of [...this.byJob.values()]) {
      for (const attachment of [...list]) if (attachment.caller === caller) this.drop(attachment);
    }
  }

  private async ended(job: Job, base: Pick<AttachResult, "id" | "name" | "kind" | "exitCode">) {
    const screen = (await readLastScreen(job.dir)) ?? "";
    return { ...base, ended: true, lifecycle: job.lifecycle as Lifecycle, screen, keyboard: false };
  }

  private holder(caller: Caller, jobId: string): Attachment {
    const list = this.byJob.get(jobId) ?? [];
    const attachment = list.find((a) => a.caller === caller);
    if (!attachment) throw new RoostError("bad_request", `this connection is not attached to job ${jobId}`);
    if (list[0] !== attachment)
      throw new RoostError(
        "locked",
        `another attached terminal holds job ${jobId}'s keyboard; watching only`,
      );
    return attachment;
  }

  private drop(attachment: Attachment): void {
    const list = this.byJob.get(attachment.jobId);
    if (!list) return;
    const i = list.indexOf(attachment);
    if (i === -1) return;
    list.splice(i, 1);
    if (list.length === 0) this.byJob.delete(attachment.jobId);
    else if (i === 0) list[0]!.caller.send({ event: "terminal-keyboard", id: attachment.jobId });
    void attachment.host.close().catch(() => {});
  }
}
