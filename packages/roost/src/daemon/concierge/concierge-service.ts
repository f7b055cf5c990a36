import {
  asksPerson,
  CONCIERGE_NAME,
  type ConciergeEvent,
  type ConciergeOrderResult,
  type ConciergePolicy,
  type ConciergeStatus,
  type FeedEvent,
  OPS,
  type OpEffect,
  type OpName,
  type OrderBy,
  type ReplyMode,
  type ReplyResult,
  RoostError,
  type SayKind,
  type StandingOrder,
} from "../../protocol/index.js";
import type { Caller } from "../caller.js";
import { type EventsFeed, type FeedActor, USER } from "../feed/events-feed.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import { isLive, type Job } from "../jobs/job.js";
import { toRow } from "../jobs/job-row.js";
import type { Supervisor } from "../jobs/supervisor.js";
import { deliverItem } from "../peers/deliver-item.js";
import type { Clock } from "../schedules/clock.js";
import { RecordTable } from "../store/record-table.js";
import type { JobRecord, Store } from "../store/store.js";
import { asPiConcierge, isPiConcierge } from "./concierge-launch.js";
import { conciergeCannotRun } from "./concierge-model.js";
import { buildDigest, rowNeed } from "./digest.js";
import { OrderBook } from "./orders.js";
import { notRoutine } from "./routine.js";
import { readConciergeSettings } from "./settings.js";

/** Events that come together within this long make one digest. */
const DIGEST_DELAY_MS = 2000;

/** What the daemon keeps of the concierge besides its job and its orders. */
interface ConciergeMeta {
  id: number;
  /** Set by the person (the hub, the CLI); null: roost.json's. */
  policy: ConciergePolicy | null;
  answered: number;
  undoable: { jobId: string; name: string; text: string; at: string } | null;
  /** The feed's cursor the last digest went up to. */
  cursor: number;
  /** The digest on its way (its seq), with the orders it says are due. */
  inFlight: { seq: number; orders: { id: number; due: number }[] } | null;
}

export interface ConciergeDeps {
  state: DaemonState;
  supervisor: Supervisor;
  feed: EventsFeed;
  clock: Clock;
  store: Store;
  /** Starts a job from a dispatch's arguments; `extend` adds to its record before it is kept. */
  dispatch(
    launch: Record<string, unknown>,
    extend?: (record: JobRecord) => void,
  ): Promise<{ id: string; name: string }>;
  /** A reply to a job, in the feed as `by`'s. */
  reply(job: Job, text: string, mode: ReplyMode | null, by: FeedActor): Promise<ReplyResult>;
}

function waits(job: Job): boolean {
  return asksPerson(toRow(job));
}

/** Why a job failed: it ended failed, or its agent reports a failed run (pi alive after a run that broke). */
function failure(job: Job): string | null {
  const row = toRow(job);
  if (job.lifecycle !== "failed" && row.state !== "failed") return null;
  const why = row.error || row.summary || (row.exitCode !== null ? `it exited ${row.exitCode}` : "");
  return why.trim() === "" ? "it failed" : why;
}

/**
 * The concierge (M44–M46): its job (the one with `role: "concierge"`), its policy, what it said
 * and answered, the digests that wake it, and the standing orders on the schedules' clock.
 */
export class ConciergeService {
  readonly orders: OrderBook;
  private readonly table: RecordTable<ConciergeMeta>;
  private readonly meta: ConciergeMeta;
  private digestTimer: NodeJS.Timeout | null = null;
  private orderTimer: NodeJS.Timeout | null = null;
  private stopped = true;
  /** Just turned on: the first digest goes even without new events when rows need a look. */
  private fresh = false;
  private lastPushed = "";
  /** `on` and `off` one after the other: twenty `on` at once make one concierge. */
  private switching: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: ConciergeDeps) {
    this.orders = new OrderBook(deps.store);
    const fresh = (): ConciergeMeta => ({
      id: 1,
      policy: null,
      answered: 0,
      undoable: null,
      cursor: deps.feed.read({ limit: 1 }).cursor,
      inFlight: null,
    });
    // Settings an op could not keep are set back (to a fresh start when none were ever kept).
    this.table = new RecordTable(deps.store, "concierge", (_id, kept) => {
      if (!kept) Object.assign(this.meta, fresh());
      this.push();
    });
    this.meta = this.table.all()[0] ?? fresh();
    deps.feed.listeners.push((event) => this.eventAdded(event));
  }

  private save(): void {
    this.table.put(this.meta);
    this.push();
  }

  private get now(): number {
    return this.deps.clock.now();
  }

  start(): void {
    this.stopped = false;
    this.checkReached();
    this.tickOrders();
    this.lastPushed = JSON.stringify(this.status());
  }

  stop(): void {
    this.stopped = true;
    if (this.digestTimer) clearTimeout(this.digestTimer);
    if (this.orderTimer) clearTimeout(this.orderTimer);
    this.digestTimer = null;
    this.orderTimer = null;
  }

  /** The concierge's job, if it has one. */
  job(): Job | undefined {
    return this.deps.state.jobs.conciergeJob();
  }

  /** The concierge's job when `caller` is its connection (after its report). */
  speaker(caller: Caller): Job | undefined {
    const job = caller.jobId === null ? undefined : this.deps.state.jobs.get(caller.jobId);
    return job?.role === "concierge" && job.connection === caller ? job : undefined;
  }

  /** The concierge's job for an op that is its own: any other connection is `unsupported`. */
  requireSpeaker(caller: Caller, op: string): Job {
    const job = this.speaker(caller);
    if (!job)
      throw new RoostError(
        "unsupported",
        `${op} is the concierge's: it is taken on the concierge job's connection, after its report`,
      );
    return job;
  }

  policy(): ConciergePolicy {
    return this.meta.policy ?? readConciergeSettings(this.deps.state.paths.config).policy;
  }

  /**
   * Why `on` cannot start it now, or null. Only the default concierge (pi with roost's extension)
   * needs a model from the configuration; a launch of the person's own runs what it names.
   */
  private cannotRun(job: Job | undefined): string | null {
    if (job && !isPiConcierge(job)) return null;
    return conciergeCannotRun(readConciergeSettings(this.deps.state.paths.config).model);
  }

  status(): ConciergeStatus {
    const job = this.job();
    const failed = job ? failure(job) : null;
    const running = job !== undefined && isLive(job) && failed === null;
    return {
      running,
      failed,
      unavailable: running ? null : this.cannotRun(job),
      job: job
        ? { id: job.id, name: job.name, lifecycle: job.lifecycle, connected: job.connection !== null }
        : null,
      policy: this.policy(),
      answered: this.meta.answered,
      orders: this.orders.size,
      undoable: this.meta.undoable,
    };
  }

  /** Tells subscribed hubs how it stands when that changed (or what it said, always). */
  private push(said?: ConciergeEvent["said"]): void {
    const status = this.status();
    const shown = JSON.stringify(status);
    if (!said && shown === this.lastPushed) return;
    this.lastPushed = shown;
    const event: ConciergeEvent = { event: "concierge", status, ...(said ? { said } : {}) };
    for (const caller of this.deps.state.callers) if (caller.subscribed) caller.send(event);
  }

  private note(why: string, text: string, by: FeedActor, jobs: string[] = []): FeedEvent {
    const concierge = this.job();
    return this.deps.feed.add({
      kind: "concierge",
      why,
      text,
      who: by.who,
      whoId: by.whoId,
      jobs: [...new Set([...(concierge ? [concierge.id] : []), ...jobs])],
    });
  }

  private actor(job: Job): FeedActor {
    return { who: CONCIERGE_NAME, whoId: job.id };
  }

  // ---- the person's side: on, off, policy, undo, ask ----

  /** Runs a switch after the ones before it have ended, whether they succeeded or not. */
  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.switching.then(work, work);
    this.switching = turn.catch(() => {});
    return turn;
  }

  /**
   * Starts it: the job it had (started again), else a new one from `launch` (default: pi with the
   * concierge's extension). Running already: nothing changes. One switch at a time: an `on` that
   * comes while another is starting the job finds it running.
   */
  on(launch: Record<string, unknown> | undefined): Promise<ConciergeStatus> {
    return this.inTurn(() => this.turnOn(launch));
  }

  private async turnOn(launch: Record<string, unknown> | undefined): Promise<ConciergeStatus> {
    const had = this.job();
    if (had && isLive(had) && failure(had) === null) return this.status();
    const { state, supervisor } = this.deps;
    if (launch === undefined) {
      const why = this.cannotRun(had);
      if (why !== null) throw new RoostError("unsupported", `the concierge cannot run: ${why}`);
    }
    if (had && launch === undefined) {
      if (!state.host) await state.waitForHost();
      state.requireHost();
      await supervisor.respawn(had);
    } else {
      if (had) await this.forget(had);
      const model = readConciergeSettings(state.paths.config).model;
      // The concierge watches the fleet from its own folder: never in a worktree.
      await this.deps.dispatch({ ...(launch ?? { profile: "pi" }), worktree: false }, (record) => {
        record.role = "concierge";
        record.name = CONCIERGE_NAME;
        if (launch === undefined) asPiConcierge(record, model);
      });
    }
    this.meta.cursor = this.deps.feed.read({ limit: 1 }).cursor;
    this.fresh = true;
    this.note("on", "the concierge is on", USER);
    this.save();
    this.wantDigest();
    return this.status();
  }

  /** Another launch replaces the job it had: the old one is removed. */
  private async forget(job: Job): Promise<void> {
    const { state, supervisor } = this.deps;
    state.jobs.delete(job.id);
    state.store.deleteJob(job.id);
    state.removed(job.id);
    await supervisor.remove(job);
  }

  off(): Promise<ConciergeStatus> {
    return this.inTurn(() => this.turnOff());
  }

  private async turnOff(): Promise<ConciergeStatus> {
    const job = this.job();
    if (job && isLive(job)) {
      const { state, supervisor } = this.deps;
      if (!state.host) await state.waitForHost();
      state.requireHost();
      await supervisor.stop(job);
      this.note("off", "the concierge is off", USER);
    }
    this.push();
    return this.status();
  }

  setPolicy(change: Partial<ConciergePolicy>): ConciergeStatus {
    const policy = { ...this.policy(), ...change };
    this.meta.policy = policy;
    this.note("policy", `answer: ${policy.answer}, act: ${policy.act ? "on" : "off"}`, USER);
    this.save();
    return this.status();
  }

  /** Withdraws its last reply: the session is steered (or replied to) to disregard it. */
  async undo(): Promise<ConciergeStatus> {
    const last = this.meta.undoable;
    if (!last) throw new RoostError("not_found", "the concierge has no reply to undo");
    const job = this.deps.state.jobs.get(last.jobId);
    if (!job)
      throw new RoostError("not_found", `${last.name} (${last.jobId}) is gone: nothing to undo there`);
    const steer = job.kind === "protocol" && job.connection !== null && toRow(job).status === "busy";
    const text = [
      `Disregard the answer "${last.text}" given at ${last.at}: it came from the concierge, in the`,
      "user's place, and the user has withdrawn it. Do not act on it; if you already did, stop,",
      "say what you did, and wait for the user's own answer.",
    ].join(" ");
    await this.deps.reply(job, text, steer ? "steer" : null, USER);
    this.meta.undoable = null;
    this.note("undo", `${job.name}: withdrew "${last.text}"`, USER, [job.id]);
    this.save();
    return this.status();
  }

  /** The person asks the concierge something: a reply to its job. */
  ask(text: string): Promise<ReplyResult> {
    const job = this.job();
    if (!job) throw new RoostError("not_found", "there is no concierge: turn it on first");
    const failed = failure(job);
    // Asked, a failed concierge would only fail again: the person is told, and how to start it again.
    if (failed !== null)
      throw new RoostError(
        "unsupported",
        `the concierge failed: ${failed}; \`roost concierge on\` (C o in the hub) starts it again`,
      );
    return this.deps.reply(job, text, null, USER);
  }

  // ---- the concierge's side: say, suggest, reply, act, orders ----

  // Each of these takes the concierge's job, as `requireSpeaker` gave it for the connection.

  say(job: Job, kind: SayKind, text: string): void {
    const event = this.note(kind, text, this.actor(job));
    this.push({ kind, text, at: event.at });
  }

  suggest(job: Job, target: Job, text: string, why: string | null): { id: string } {
    if (!waits(target))
      throw new RoostError("bad_request", `${target.name} (${target.id}) is not waiting: nothing to suggest`);
    target.suggested = { text, why, at: this.deps.state.now() };
    this.deps.state.save(target);
    this.note("suggest", `${target.name}: ${text}`, this.actor(job), [target.id]);
    return { id: target.id };
  }

  async reply(job: Job, target: Job, text: string, why: string | null): Promise<ReplyResult> {
    if (target.id === job.id) throw new RoostError("bad_request", "the concierge does not answer itself");
    const row = toRow(target);
    if (row.waitingFor !== "question" || !isLive(target))
      throw new RoostError(
        "bad_request",
        `${target.name} (${target.id}) is not waiting for an answer to a question`,
      );
    // A command reply (/stop) acts on the session rather than answering it: the person's alone.
    if (text.trimStart().startsWith("/"))
      throw new RoostError("policy", "a command reply (a text starting with /) is the person's to give");
    if (this.policy().answer === "routine") {
      const why = notRoutine(row, text);
      if (why !== null)
        throw new RoostError(
          "policy",
          `not a routine question (answer: routine): ${why}; suggest instead, the person answers it`,
        );
    }
    const result = await this.deps.reply(target, text, null, this.actor(job));
    this.meta.answered++;
    this.meta.undoable = { jobId: target.id, name: target.name, text, at: this.deps.state.now() };
    if (why) this.note("answer", `${target.name}: ${text} (why: ${why})`, this.actor(job), [target.id]);
    this.save();
    return result;
  }

  /**
   * Holds an op on the concierge's connection to the person's policy, by what its record says it
   * may do to others, before it runs: starting or stopping a session needs `act`, answering one
   * needs `answer` other than `never` (`routine` is decided by the reply itself). An op that may
   * wake an ended session by delivering to it runs with waking refused while `act` is off: what it
   * delivers waits on that session's queue for the person to start it.
   */
  asConcierge<T>(op: OpName, run: () => T): T {
    const effects: readonly OpEffect[] = OPS[op].effects;
    const policy = this.policy();
    if (!policy.act && (effects.includes("start") || effects.includes("stop")))
      throw new RoostError(
        "policy",
        `${op} starts or stops sessions: the person has not let the concierge act (act: off)`,
      );
    if (policy.answer === "never" && effects.includes("answer"))
      throw new RoostError(
        "policy",
        "the person has not let the concierge answer (answer: never): suggest instead",
      );
    if (policy.act || !effects.includes("wake")) return run();
    const { state } = this.deps;
    // The op's own turn only: what it sets off later (a timer, a digest) is not the concierge's.
    state.wakesRefused = true;
    try {
      return run();
    } finally {
      state.wakesRefused = false;
    }
  }

  /** Stops or starts a session again, or starts a new one: only with `act` on. */
  async act(
    job: Job,
    action: { what: "stop" | "respawn"; target: Job } | { what: "dispatch"; launch: Record<string, unknown> },
  ): Promise<{ id: string; name?: string }> {
    // `act` is the router's to check (`asConcierge`), as for every op that starts or stops.
    const { state, supervisor } = this.deps;
    if (action.what === "dispatch") {
      const made = await this.deps.dispatch(action.launch);
      this.note("act", `dispatched ${made.name} (${made.id})`, this.actor(job), [made.id]);
      return made;
    }
    const target = action.target;
    if (target.id === job.id) throw new RoostError("bad_request", "the concierge does not act on itself");
    if (!state.host) await state.waitForHost();
    state.requireHost();
    if (action.what === "stop") await supervisor.stop(target);
    else await supervisor.respawn(target);
    this.note("act", `${action.what} ${target.name} (${target.id})`, this.actor(job), [target.id]);
    return { id: target.id, name: target.name };
  }

  /** Who a connection gives orders as: the user, or the concierge (a session's is `unsupported`). */
  orderBy(caller: Caller): { by: OrderBy; actor: FeedActor } {
    const job = this.speaker(caller);
    if (job) return { by: "concierge", actor: this.actor(job) };
    if (caller.role === "session")
      throw new RoostError("unsupported", "standing orders are the person's and the concierge's");
    return { by: "user", actor: USER };
  }

  orderResult(order?: StandingOrder): ConciergeOrderResult {
    return { orders: this.orders.list(), ...(order ? { order } : {}) };
  }

  addOrder(caller: Caller, text: unknown, when: unknown): ConciergeOrderResult {
    const { by, actor } = this.orderBy(caller);
    const order = this.orders.add(text, when, by, this.now);
    this.note("order-kept", `#${order.id} ${order.when ? `[${order.when}] ` : ""}${order.text}`, actor);
    this.save();
    this.tickOrders();
    return this.orderResult(order);
  }

  removeOrder(caller: Caller, id: number): ConciergeOrderResult {
    const { by, actor } = this.orderBy(caller);
    const order = this.orders.remove(id, by);
    this.note("order-dropped", `#${order.id} ${order.text}`, actor);
    this.save();
    return this.orderResult(order);
  }

  applied(job: Job, id: number, text: string | null): ConciergeOrderResult {
    const order = this.orders.applied(id, this.now);
    this.note("order", `#${order.id} ${text ?? order.text}`, this.actor(job));
    this.save();
    return this.orderResult(order);
  }

  // ---- digests ----

  /** Whether an event is worth waking the concierge for: not its own doing, not about it alone. */
  private matters(event: FeedEvent, conciergeId: string): boolean {
    if (event.whoId === conciergeId || event.kind === "daemon") return false;
    return !(event.jobs.length > 0 && event.jobs.every((id) => id === conciergeId));
  }

  private eventAdded(event: FeedEvent): void {
    const job = this.job();
    if (job && this.matters(event, job.id)) this.wantDigest();
  }

  private wantDigest(): void {
    if (this.stopped || this.digestTimer !== null) return;
    this.digestTimer = setTimeout(() => {
      this.digestTimer = null;
      this.sendDigest();
    }, DIGEST_DELAY_MS);
    this.digestTimer.unref();
  }

  /**
   * Sends a digest when there is something to say (events that matter, orders due, or, just turned
   * on, rows that need a look) and none is on its way: one in flight at most.
   */
  private sendDigest(): void {
    const job = this.job();
    if (this.stopped || !job || job.lifecycle === "stopped" || this.meta.inFlight) return;
    const now = this.now;
    const due = this.orders.due(now);
    const read = this.deps.feed.read({ after: this.meta.cursor });
    const events = read.events.filter((e) => this.matters(e, job.id));
    const rows = this.deps.state.rows().filter((r) => r.id !== job.id);
    const text = buildDigest({
      why: due.length ? "order" : "events",
      now,
      events,
      rows,
      orders: this.orders.list(),
      due: due.flatMap(({ id }) => this.orders.shownById(id) ?? []),
    });
    const fresh = this.fresh;
    this.fresh = false;
    this.meta.cursor = read.cursor;
    const rowsNeedLook = rows.some((row) => rowNeed(row, now) !== null);
    if (due.length === 0 && events.length === 0 && !(fresh && rowsNeedLook)) {
      this.table.put(this.meta);
      return;
    }
    const outcome = deliverItem(this.deps.state, this.deps.supervisor, job, {
      kind: "digest",
      from: "roost",
      relation: due.length ? "order" : "events",
      text,
    });
    if (outcome === "full" || outcome === "stopped") {
      this.table.put(this.meta);
      return;
    }
    this.meta.inFlight = { seq: job.nextSeq - 1, orders: due };
    this.table.put(this.meta);
  }

  /** The digest on its way was acked: its orders' clocks move on, and the next may go. */
  private checkReached(): void {
    const inFlight = this.meta.inFlight;
    if (!inFlight) return;
    const job = this.job();
    if (job?.pending.some((item) => item.seq === inFlight.seq)) return;
    const now = this.now;
    for (const { id, due } of inFlight.orders) this.orders.reached(id, due, now);
    this.meta.inFlight = null;
    this.save();
    this.tickOrders();
    this.wantDigest();
  }

  /** Sends an order digest when one is due, and looks again at the next due time (or the poll). */
  private tickOrders(): void {
    if (this.stopped) return;
    if (this.orderTimer) clearTimeout(this.orderTimer);
    const now = this.now;
    if (this.orders.due(now).length > 0) this.sendDigest();
    // One due and not sent (a digest on its way, the concierge off) is tried again at the next poll;
    // the digest's arrival looks again at once.
    const next = this.orders.nextDue();
    const poll = this.deps.clock.pollMs;
    const wait = next === null || next <= now ? poll : Math.min(poll, next - now);
    this.orderTimer = setTimeout(() => this.tickOrders(), wait);
    this.orderTimer.unref();
  }

  // ---- what every job's change means here ----

  jobChanged(job: Job): void {
    // A suggestion is for the question it was made on: it goes when the row stops waiting.
    if (job.suggested && !waits(job)) {
      job.suggested = null;
      this.deps.state.saveSoon(job);
    }
    if (job.role === "concierge") {
      this.checkReached();
      this.push();
    }
  }

  jobRemoved(id: string): void {
    if (this.meta.undoable?.jobId === id) this.meta.undoable = null;
    if (this.meta.inFlight && !this.job()) {
      this.meta.inFlight = null;
      this.table.put(this.meta);
    }
    this.push();
  }
}
