import { join } from "node:path";
import { RoostAgent } from "pi-roost/agent";
import { jobIdentityFromEnv } from "pi-roost/protocol";
import type { Question } from "./question.js";
import type { Seat, SeatReply } from "./seat.js";

/** The record's file in the roost job's folder. */
const RECORD_FILE = "warren-play.json";

/**
 * A seat in a roost row: each observation a `blocked` question report with choices, the person's
 * replies taken once each through roost's client. A reply's command id is made from the job and the
 * reply's seq, which every redelivery of it keeps: a resend after a crash is a warren `duplicate`.
 */
export class RoostSeat implements Seat {
  private handler: ((reply: SeatReply) => Promise<void>) | undefined;
  private readonly agent: RoostAgent;

  private constructor(env: NodeJS.ProcessEnv) {
    this.agent = RoostAgent.fromEnv({
      env,
      name: "warren-play",
      version: "1",
      onReply: async (reply) => {
        if (reply.kind !== undefined) return; // A peer's item is not a move.
        await this.handler?.({ text: reply.text, commandId: `roost-${this.agent.identity.id}-${reply.seq}` });
      },
    })!;
  }

  /** The seat of the roost job this process runs as, or undefined outside one. */
  static fromEnv(env: NodeJS.ProcessEnv = process.env): RoostSeat | undefined {
    return jobIdentityFromEnv(env) ? new RoostSeat(env) : undefined;
  }

  get recordPath(): string {
    return join(this.agent.identity.dir, RECORD_FILE);
  }

  ask(question: Question): void {
    this.agent.report({ state: "blocked", status: "waiting", waitingFor: "question", ...question });
  }

  tell(summary: string): void {
    this.agent.report({ state: "working", status: "busy", summary });
  }

  listen(handle: (reply: SeatReply) => Promise<void>): void {
    this.handler = handle;
  }

  async end(summary: string, completed: boolean): Promise<void> {
    this.agent.report(
      completed
        ? { state: "done", status: "idle", summary }
        : { state: "failed", status: "idle", summary, error: summary },
    );
    await this.agent.close();
  }
}
