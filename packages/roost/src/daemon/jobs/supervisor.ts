import { jobEnvironment, RoostError } from "../../protocol/index.js";
import { launchCommand } from "../conversations/job-launch.js";
import type { HostJobInfo, ProcessHost, ScreenSnapshot } from "../host/api.js";
import { dropHeldReply, heldReplyOf } from "../terminal/held-replies.js";
import { keepLastScreen } from "../terminal/last-screen.js";
import type { TerminalRows } from "../terminal/terminal-rows.js";
import type { DaemonState } from "./daemon-state.js";
import { isEnded, isLive, type Job } from "./job.js";
import { newJobToken, tokenHash } from "./job-token.js";
import { exitOutcome, nextRun, type RunEvent, spawnOutcome } from "./run-machine.js";
import { spawnEnvironment } from "./spawn-environment.js";
import { settleStrays } from "./strays.js";

/** SIGTERM first; SIGKILL if the process is still there after this. */
const STOP_GRACE_MS = 5000;
/** How long `stop` and `respawn` wait past the grace for the host to report the exit. */
const EXIT_PATIENCE_MS = 2000;
const TERMINAL_SIZE = { cols: 120, rows: 40 };
/** A start the host was too busy to take is tried again after this. */
const BUSY_RETRY_MS = 1000;

/** A job adopted from its folder alone has nothing to start: roost never saw what it ran. */
function requireCommand(job: Job): void {
  if (job.command.length === 0)
    throw new RoostError(
      "unsupported",
      `${job.name} cannot be started again: what it ran is not known (it was adopted from its folder alone)`,
    );
}

/**
 * Runs jobs' processes through the process host: starts them, records their exits, restarts a
 * crashed one with backoff and gives up after a few crashes in a row, and re-adopts what the host
 * still runs when the daemon starts again.
 */
export class Supervisor {
  private closing = false;
  /** The host connected to, set before its jobs are adopted (the ops see it only after). */
  private host: ProcessHost | null = null;
  /** Starts under way: a second start of the same job (two respawns at once) joins the first. */
  private readonly starting = new Map<Job, Promise<void>>();
  /** Who waits for a job's process to end (a stop or a respawn answered once it has). */
  private readonly exitWaiters = new Map<Job, Set<() => void>>();

  constructor(
    private readonly state: DaemonState,
    private readonly connect: () => Promise<ProcessHost>,
    private readonly log: (line: string) => void,
    /** What the terminal agents' screens are read into: told of each start, screen and exit. */
    private readonly terminalRows: TerminalRows,
  ) {}

  /** Told of the jobs an attach found interrupted, once the ops have the host (`resumeAfterReboot`). */
  interrupted: (jobs: Job[]) => void = () => {};

  /** Moves the job's run state (`run-machine.ts`) on what happened. */
  private move(job: Job, event: RunEvent): void {
    job.run = nextRun(job.run, event);
  }

  /**
   * A host failure met on the way is not the op's to answer, but it is told: the daemon's log
   * names the job and the transition it came in.
   */
  private told(what: string, jobId: string | null): (err: unknown) => void {
    return (err) =>
      this.log(`roost: ${jobId === null ? "" : `job ${jobId}: `}${what}: ${(err as Error)?.message ?? err}`);
  }

  /** Last screens being written into jobs' folders: a removal waits for its job's. */
  private readonly keepingLastScreen = new Map<string, Promise<void>>();

  private readonly onExit = (id: string, exitCode: number | null, signal: number | null) => {
    const job = this.state.jobs.get(id);
    // A process the store does not know is left as it is, its exit with it (`strays.ts`).
    if (!job) return;
    this.letGoOfEnded(job);
    this.terminalRows.exited(job);
    this.recordExit(job, exitCode, signal);
  };

  /** The last screen goes to the job's folder before the host forgets it: attach still shows it. */
  private letGoOfEnded(job: Job): void {
    const { id } = job;
    const host = this.host;
    const kept = (host ? keepLastScreen(host, id, job.dir) : Promise.resolve())
      .catch(this.told("exit: keeping the last screen failed", id))
      .then(() => host?.forget(id).catch(this.told("exit: the host did not forget the process", id)));
    this.keepingLastScreen.set(id, kept);
    void kept.then(() => {
      if (this.keepingLastScreen.get(id) === kept) this.keepingLastScreen.delete(id);
    });
  }

  private readonly onScreen = (id: string, screen: ScreenSnapshot) => {
    const job = this.state.jobs.get(id);
    if (job) this.terminalRows.screen(job, screen);
  };

  private readonly onLost = () => {
    if (this.closing) return;
    this.detach();
    void this.attach().catch((err) => this.log(`roost: process host lost: ${(err as Error).message}`));
  };

  /** The attach under way: a close waits for it, so that the host it brings is ended or let go too. */
  private attaching: Promise<void> | null = null;

  private markFirstRead: () => void = () => {};
  /**
   * Settles once the first attach has read the screens of the jobs the host runs (or failed): before
   * it, a terminal job's row says nothing of what its screen shows.
   */
  readonly firstRead: Promise<void> = new Promise((resolve) => (this.markFirstRead = resolve));

  /** Connects to the host (starting it if need be) and takes up every job where it stands. */
  attach(): Promise<void> {
    const attaching = this.connectAndAdopt().finally(() => {
      this.markFirstRead();
      if (this.attaching === attaching) this.attaching = null;
    });
    this.attaching = attaching;
    return attaching;
  }

  private async connectAndAdopt(): Promise<void> {
    let host: ProcessHost | undefined;
    for (let attempt = 0; !host; attempt++) {
      try {
        host = await this.connect();
      } catch (err) {
        if (this.closing || attempt >= 20) throw err;
        await new Promise((r) => setTimeout(r, Math.min(2000, 100 * 2 ** attempt)));
      }
    }
    host.on("exit", this.onExit);
    host.on("screen", this.onScreen);
    host.on("lost", this.onLost);
    this.host = host;
    const { toStart, interrupted } = await this.adopt(host);
    // Only now do the ops get the host: a dispatch cannot race the adoption.
    this.state.host = host;
    if (this.closing) return;
    for (const job of toStart) void this.start(job);
    if (interrupted.length > 0) this.interrupted(interrupted);
  }

  private detach(): void {
    const host = this.host;
    if (!host) return;
    this.host = null;
    host.off("exit", this.onExit);
    host.off("screen", this.onScreen);
    host.off("lost", this.onLost);
    this.state.host = null;
  }

  private endAs(job: Job, lifecycle: "interrupted" | "reaped"): void {
    job.lifecycle = lifecycle;
    job.pid = null;
    this.state.save(job);
  }

  /**
   * Takes up what the host runs; returns the jobs to start (a restart was due when the daemon went)
   * and those the host went down with (`interrupted`).
   */
  private async adopt(host: ProcessHost): Promise<{ toStart: Job[]; interrupted: Job[] }> {
    const toStart: Job[] = [];
    const interrupted: Job[] = [];
    const listed = await host.list();
    const known = new Map<string, HostJobInfo>(listed.map((h) => [h.id, h]));
    const { store, paths, jobs } = this.state;
    const removed = new Set(store.removedJobs());
    await settleStrays(host, listed, paths.jobsDir, jobs, removed, this.log);
    store.forgetRemoved(removed);
    const screens: Promise<void>[] = [];
    for (const job of this.state.jobs.values()) {
      if (!isLive(job) || job.restartTimer !== null) continue;
      const info = known.get(job.id);
      if (info) {
        screens.push(this.takeUp(host, job, info));
      } else if (host.fresh) {
        // The host went down with it (a reboot, every roost process killed): it waits for a resume.
        this.endAs(job, "interrupted");
        interrupted.push(job);
      } else if (job.lifecycle === "starting") {
        toStart.push(job);
      } else {
        // Gone without a trace from a host that lives on: its exit is unknown.
        this.endAs(job, "reaped");
      }
    }
    // Each row as its screen shows it before the ops get the host (and the rows are listed).
    await Promise.all(screens);
    return { toStart, interrupted };
  }

  /**
   * Takes up a job the host has: running, it is `running` with the host's pid and its row is read
   * from its screen (settled once read); ended, its exit is heard.
   */
  private takeUp(host: ProcessHost, job: Job, info: HostJobInfo): Promise<void> {
    if (!info.running) {
      this.onExit(job.id, info.exitCode, info.signal);
      return Promise.resolve();
    }
    job.pid = info.pid;
    job.startedAt = info.startedAt;
    if (job.lifecycle !== "running") {
      job.lifecycle = "running";
      this.state.save(job);
    }
    return host
      .screen(job.id)
      .then((s) => this.onScreen(job.id, s))
      .catch(this.told("adopt: reading the screen failed", job.id));
  }

  /**
   * A job the host has and the store did not know, now made known (`roost adopt`): running, taken
   * up as the daemon's start takes up its own; ended (its record says how), let go of as an exit is.
   * Nothing is started again.
   */
  takeUpStray(job: Job, info: HostJobInfo): Promise<void> {
    if (info.running) return this.takeUp(this.state.requireHost(), job, info);
    this.letGoOfEnded(job);
    return Promise.resolve();
  }

  /** Starts the job's process (again): `starting`, then `running` once the host runs it. */
  start(job: Job): Promise<void> {
    const under = this.starting.get(job);
    if (under) return under;
    const started = this.startOnce(job).finally(() => {
      this.starting.delete(job);
      this.move(job, "settled");
    });
    this.starting.set(job, started);
    return started;
  }

  private async startOnce(job: Job): Promise<void> {
    this.clearTimers(job);
    this.terminalRows.starting(job);
    job.lifecycle = "starting";
    job.exitCode = null;
    this.move(job, "start");
    this.state.save(job);
    try {
      const host = await this.state.waitForHost();
      // Removed while it waited for the host: nothing to start.
      if (!this.state.jobs.has(job.id)) return;
      const info = await this.spawnOrFind(host, job);
      if (this.state.jobs.get(job.id) !== job) {
        // Removed while it was being started: what just started has no job any more.
        void this.state.host
          ?.remove(job.id)
          .catch(this.told("start: removing what started for a removed job failed", job.id));
        return;
      }
      const outcome = spawnOutcome(job.run, job.lifecycle, info.running);
      // Its exit is recorded already (a restart is due, or it ended): the start's answer is stale.
      if (outcome === "stale") return;
      job.pid = info.pid;
      if (outcome === "stop") {
        // Stopped while it was being started: end what just started.
        job.lifecycle = "running";
        this.move(job, "stop");
        await this.terminate(job);
        return;
      }
      job.startedAt = info.startedAt;
      if (job.lifecycle === "starting") job.lifecycle = "running";
      if (outcome === "exited") {
        this.state.save(job);
        this.recordExit(job, info.exitCode, info.signal);
        return;
      }
    } catch (err) {
      if (
        err instanceof RoostError &&
        err.code === "busy" &&
        !this.closing &&
        this.state.jobs.get(job.id) === job
      ) {
        // The host does not answer just now: the job stays `starting` and is tried again shortly.
        job.restartTimer = setTimeout(() => {
          job.restartTimer = null;
          if (this.state.jobs.get(job.id) === job && job.lifecycle === "starting") void this.start(job);
        }, BUSY_RETRY_MS);
        this.state.save(job);
        return;
      }
      job.lifecycle = "failed";
      job.error = `could not start: ${(err as Error).message}`;
      job.pid = null;
    }
    this.state.save(job);
  }

  /**
   * Spawns the job's process. A spawn answered too late for its deadline may have been done all the
   * same: tried again, the host says the job runs, and that process is the job's.
   */
  private async spawnOrFind(host: ProcessHost, job: Job): Promise<HostJobInfo> {
    job.token ??= newJobToken();
    job.tokenHash = tokenHash(job.token);
    try {
      return await host.spawn({
        id: job.id,
        command: await launchCommand(job),
        cwd: job.cwd,
        env: { ...spawnEnvironment(job.env), ...jobEnvironment({ token: job.token }) },
        dir: job.dir,
        ...TERMINAL_SIZE,
      });
    } catch (err) {
      if (!(err instanceof RoostError && err.code === "conflict")) throw err;
      const running = (await host.list()).find((info) => info.id === job.id && info.running);
      if (!running) throw err;
      return running;
    }
  }

  /** A job's process ended: done, failed, stopped, started again, or restarted after a crash. */
  recordExit(job: Job, exitCode: number | null, signal: number | null): void {
    const outcome = exitOutcome({
      run: job.run,
      lifecycle: job.lifecycle,
      reported: job.report?.state,
      exitCode,
      signal,
      ranMs: job.startedAt === null ? 0 : Date.now() - job.startedAt,
      crashStreak: job.crashStreak,
    });
    if (outcome.to === "ignored") return;
    for (const wake of this.exitWaiters.get(job) ?? []) wake();
    this.exitWaiters.delete(job);
    this.move(job, "exit");
    this.clearTimers(job);
    job.exitCode = exitCode;
    job.pid = null;
    job.startedAt = null;
    switch (outcome.to) {
      case "respawn":
        void this.start(job);
        return;
      case "stopped":
      case "done":
        job.lifecycle = outcome.to;
        break;
      case "failed":
        job.lifecycle = "failed";
        if (outcome.crashStreak !== undefined) job.crashStreak = outcome.crashStreak;
        if (outcome.gaveUp !== undefined) job.error = outcome.gaveUp;
        break;
      case "restart":
        job.crashStreak = outcome.crashStreak;
        job.lifecycle = "starting";
        job.restarts++;
        job.restartTimer = setTimeout(() => {
          job.restartTimer = null;
          if (this.state.jobs.has(job.id) && job.lifecycle === "starting") void this.start(job);
        }, outcome.delayMs);
        break;
    }
    if (isEnded(job) && job.restart === "reruns") this.dropUntaken(job);
    this.state.save(job);
  }

  /**
   * The replies a job that runs anew did not take before it ended: no run of it will take them (a
   * reply starts a new one only when asked), so they are not kept as waiting.
   */
  private dropUntaken(job: Job): void {
    for (const reply of job.pending)
      if (reply.kind === undefined) this.state.store.ack(job.id, reply.seq, true);
    job.pending = job.pending.filter((reply) => reply.kind !== undefined);
    if (heldReplyOf(job) !== null) dropHeldReply(job);
  }

  /**
   * Starts an ended job (reaped, interrupted, done, failed) again for what came for it (a reply, an agent
   * item), its crash count and error cleared. A stopped job is not woken: the user stopped it, and
   * what came waits for a respawn. Returns the start, or null when the job had not ended.
   */
  wake(job: Job): Promise<void> | null {
    if (!isEnded(job)) return null;
    requireCommand(job);
    job.crashStreak = 0;
    job.error = null;
    return this.start(job);
  }

  /** Stops the job: SIGTERM, then SIGKILL if it lingers. An ended job is marked stopped at once. */
  async stop(job: Job): Promise<void> {
    // A start under way ends first: stopped, the row must not read `running` again after the answer.
    await this.starting.get(job);
    if (job.lifecycle !== "running") {
      this.clearTimers(job);
      job.lifecycle = "stopped";
      job.crashStreak = 0;
      this.state.save(job);
      return;
    }
    this.move(job, "stop");
    await this.terminateAndWait(job);
  }

  /** Ends the running process and starts the job again; an ended job starts at once. */
  async respawn(job: Job): Promise<void> {
    requireCommand(job);
    job.crashStreak = 0;
    job.error = null;
    if (job.lifecycle !== "running") {
      await this.start(job);
      return;
    }
    this.move(job, "respawn");
    await this.terminateAndWait(job);
    await this.starting.get(job);
  }

  /** Resolves once the job's last screen, if it is being kept as its process ended, is in its folder. */
  async lastScreenKept(job: Job): Promise<void> {
    await this.keepingLastScreen.get(job.id);
  }

  /**
   * Ends the job for good (rm): the host kills its process and forgets it, answering once nothing of
   * the job writes into its folder. A host not connected now forgets it when adopted again.
   */
  async remove(job: Job): Promise<void> {
    this.clearTimers(job);
    await this.lastScreenKept(job);
    await this.state.host?.remove(job.id).catch(this.told("rm: the host did not remove the process", job.id));
  }

  /** Ends the process and answers once its exit is recorded (or after the grace and a little more). */
  private async terminateAndWait(job: Job): Promise<void> {
    let wake = () => {};
    const exited = new Promise<void>((resolve) => {
      wake = resolve;
    });
    const waiters = this.exitWaiters.get(job) ?? new Set();
    this.exitWaiters.set(job, waiters.add(wake));
    const timer = setTimeout(wake, STOP_GRACE_MS + EXIT_PATIENCE_MS);
    try {
      await this.terminate(job);
      await exited;
    } finally {
      clearTimeout(timer);
      waiters.delete(wake);
    }
  }

  private async terminate(job: Job): Promise<void> {
    const host = this.state.requireHost();
    try {
      await host.kill(job.id, "SIGTERM");
    } catch (err) {
      // Ended and forgotten by the host already, its exit still on its way: nothing left to end.
      if (err instanceof RoostError && err.code === "not_found") return;
      throw err;
    }
    if (job.killTimer) clearTimeout(job.killTimer);
    job.killTimer = setTimeout(() => {
      job.killTimer = null;
      if (job.lifecycle === "running")
        void host.kill(job.id, "SIGKILL").catch(this.told("stop: SIGKILL after the grace failed", job.id));
    }, STOP_GRACE_MS);
  }

  private clearTimers(job: Job): void {
    if (job.restartTimer) clearTimeout(job.restartTimer);
    if (job.killTimer) clearTimeout(job.killTimer);
    job.restartTimer = null;
    job.killTimer = null;
  }

  /** Lets go of the host; `all` ends every job and the host as well. */
  async close(all: boolean): Promise<void> {
    this.closing = true;
    // A shutdown as the daemon starts (or finds its host again) ends the host being connected to as well.
    await this.attaching?.catch(this.told("close: the attach under way failed", null));
    for (const job of this.state.jobs.values()) this.clearTimers(job);
    const host = this.host;
    this.detach();
    if (!host) return;
    if (all) {
      for (const job of this.state.jobs.values()) {
        if (isLive(job)) {
          job.lifecycle = "stopped";
          job.pid = null;
          this.state.save(job);
        }
      }
      await host.shutdown();
    } else {
      await host.close();
    }
  }
}
