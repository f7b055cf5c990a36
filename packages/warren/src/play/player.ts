import { excludedByAffordances } from "../client/affordance-check.js";
import { type AgentSession, RunEndedError } from "../client/agent-session.js";
import type { WarrenClient } from "../client/warren-client.js";
import type { Briefing, Envelope } from "../protocol/index.js";
import type { PendingCommand, PlayRecordFile } from "./play-record.js";
import { choicesFor, fit, QUESTION_LIMITS, questionFor } from "./question.js";
import type { Seat, SeatReply } from "./seat.js";
import { readCommand } from "./written-command.js";

/** How long after an envelope's deadline the player stops waiting for an answer to it. */
const DEADLINE_GRACE_MS = 250;

export interface PlayerOptions {
  /** Long-poll wait in seconds (default 25). */
  waitS?: number;
  /** The run's page in the viewer, said in the row. */
  viewerUrl?: string;
}

/**
 * A person playing one warren agent from a seat: each observation asked as a question, each reply
 * read as a command and sent under the reply's command id. A command on its way is kept in the
 * record first, so a player started again after a crash sends it again under the same id: the
 * server answers `duplicate` and nothing is done twice. A reply is handled once the run has moved
 * past the observation it answered, so the seat only lets go of it (a roost ack) after that.
 */
export class Player {
  private briefing!: Briefing;
  /** The observation shown and not yet answered. */
  private current: Envelope | undefined;
  private shownSeq = -1;
  private note = "";
  private lastSent: { commandId: string; written: string; status: string } | undefined;
  private ended = false;
  private readonly wakers = new Set<() => void>();

  constructor(
    private readonly client: WarrenClient,
    private readonly session: AgentSession,
    private readonly seat: Seat,
    private readonly record: PlayRecordFile,
    private readonly options: PlayerOptions = {},
  ) {}

  /** Plays until the run ends; resolves with its terminal status. */
  async play(): Promise<string> {
    let status: string;
    try {
      const claim = await this.session.claim();
      this.keepLease();
      this.briefing = await this.session.briefing(claim.briefing_revision);
      this.seat.tell(this.withViewer(`playing ${this.session.agentId} in ${this.session.runId}`));
      this.seat.listen((reply) => this.onReply(reply));
      for (;;) {
        const envelope = await this.session.observe(this.options.waitS ?? 25);
        this.keepLease();
        if (!envelope) continue;
        this.briefing = await this.session.briefing(envelope.briefing_revision);
        await this.show(envelope);
        await this.untilClosed(envelope);
      }
    } catch (error) {
      if (!(error instanceof RunEndedError)) throw error;
      status = error.status;
    } finally {
      this.ended = true;
      this.wake();
    }
    const run = await this.client.run(this.session.runId).catch(() => undefined);
    const why = run?.status_reason ? `: ${run.status_reason}` : "";
    const summary = fit(this.withViewer(`${this.session.runId} ${status}${why}`), QUESTION_LIMITS.summary);
    await this.seat.end(summary, status === "completed");
    return status;
  }

  private keepLease(): void {
    if (this.session.lease !== this.record.current.lease) this.record.update({ lease: this.session.lease });
  }

  private withViewer(text: string): string {
    return this.options.viewerUrl ? `${text} · ${this.options.viewerUrl}` : text;
  }

  private async show(envelope: Envelope): Promise<void> {
    if (this.lastSent) {
      const sent = this.lastSent;
      this.lastSent = undefined;
      const receipt = await this.session.receipt(sent.commandId).catch(() => undefined);
      const outcome = receipt
        ? `, outcome ${receipt.outcome}${receipt.outcome_reason ? `: ${receipt.outcome_reason}` : ""}`
        : "";
      this.note = `Last: ${sent.written} → ${sent.status}${outcome}.`;
    }
    this.current = envelope;
    this.shownSeq = Math.max(this.shownSeq, envelope.seq);
    this.wake();
    this.ask(envelope);
  }

  private ask(envelope: Envelope): void {
    const question = questionFor(envelope, this.briefing, this.note);
    this.seat.ask({ ...question, summary: fit(this.withViewer(question.summary), QUESTION_LIMITS.summary) });
  }

  /** Waits until the envelope is answered or its deadline has passed (a noop was recorded). */
  private async untilClosed(envelope: Envelope): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, envelope.deadline_unix * 1000 - Date.now() + DEADLINE_GRACE_MS);
    });
    await Promise.race([deadline, this.until(() => this.current !== envelope)]);
    clearTimeout(timer);
    this.session.answeredSeq = Math.max(this.session.answeredSeq, envelope.seq);
    if (this.current === envelope) {
      this.current = undefined;
      this.note = `No answer came in time at t=${envelope.sim_time_ms / 1000}s: a noop was recorded.`;
    }
  }

  private until(done: () => boolean): Promise<void> {
    if (done() || this.ended) return Promise.resolve();
    return new Promise((resolve) => {
      const check = (): void => {
        if (!done() && !this.ended) return;
        this.wakers.delete(check);
        resolve();
      };
      this.wakers.add(check);
    });
  }

  private wake(): void {
    for (const check of [...this.wakers]) check();
  }

  private async onReply(reply: SeatReply): Promise<void> {
    const pending = this.record.current.pending;
    if (pending?.command_id === reply.commandId) return this.send(pending);
    await this.until(() => this.current !== undefined);
    const envelope = this.current;
    if (!envelope) return;
    const read = readCommand(reply.text, choicesFor(envelope, this.briefing), this.briefing.tool_catalog);
    const problem = "error" in read ? read.error : excludedByAffordances(envelope.affordances, read.payload);
    if (problem || "error" in read) {
      this.note = `"${fit(reply.text.trim(), 60)}" does not fit: ${problem}.`;
      this.ask(envelope);
      return;
    }
    const command: PendingCommand = { command_id: reply.commandId, envelope, ...read };
    this.record.update({ pending: command });
    await this.send(command);
  }

  /**
   * Sends a command (again, after a restart, under the same id) and says what became of it. It stays
   * in the record until the run has moved past its observation: the reply is acked only then.
   */
  private async send(command: PendingCommand): Promise<void> {
    try {
      await this.sendOnce(command);
    } catch (error) {
      // A run that ended is said by the loop; anything else (the server unreachable through every
      // retry) is said in the row, and the same question asked again.
      if (!(error instanceof RunEndedError)) {
        this.note = `${command.written} could not be sent (${(error as Error).message}): answer again.`;
        if (this.current) this.ask(this.current);
      }
    } finally {
      this.record.update({ pending: undefined });
    }
  }

  private async sendOnce(command: PendingCommand): Promise<void> {
    const receipt = await this.session.submit(command.envelope, command.payload, command.command_id);
    const answered = command.envelope;
    if (receipt.observation_id !== answered.observation_id) {
      // This reply's id was taken for an earlier observation: the same reply again, not a new move.
      this.note = `${command.written} was taken already (for ${receipt.observation_id}), not again.`;
      if (this.current) this.ask(this.current);
      return;
    }
    if (receipt.status === "rejected") {
      this.note = `${command.written} was refused: ${receipt.detail}`;
      if (this.current === answered) this.ask(answered);
      return;
    }
    if (this.current?.observation_id === answered.observation_id) this.current = undefined;
    this.wake();
    if (receipt.status === "stale" || receipt.status === "expired") {
      this.note = `${command.written} came too late (${receipt.status}): ${receipt.detail}`;
      return;
    }
    this.lastSent = { commandId: command.command_id, written: command.written, status: receipt.status };
    this.seat.tell(this.withViewer(`${command.written}: ${receipt.status}; the run goes on`));
    await this.until(() => this.shownSeq > answered.seq);
  }
}
