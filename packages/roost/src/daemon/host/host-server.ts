/**
 * The host's state and ops: the job table, the connections, and when to go away. It serves any
 * number of connections; events go to all of them, a job's raw output only to those watching it.
 */
import { mkdirSync, statSync } from "node:fs";
import type { Server, Socket } from "node:net";
import { RoostError } from "../../protocol/errors.js";
import { encodeLine } from "../../protocol/framing.js";
import type { HostJobInfo } from "./api.js";
import { HostConnection } from "./host-connection.js";
import { HostJob, type JobListener } from "./host-job.js";
import { HOST_PROTOCOL_VERSION, type HostEvent, type HostOpName, type HostOps } from "./protocol.js";
import { isHostOp, parseHostArgs } from "./requests.js";
import { screenChange } from "./screen-change.js";
import { ScreenPace } from "./screen-pace.js";

/** After SIGTERM, how long jobs get to end before SIGKILL, at shutdown. */
const SHUTDOWN_GRACE_MS = 2000;
/** How long `remove` waits for a killed process to be reaped before it lets go of the job anyway. */
const REMOVE_PATIENCE_MS = 5000;
/** Keyed writes remembered per job (a reply's request id is kept for its last 100 too). */
const WRITE_KEYS_KEPT = 100;

type Handlers = {
  [K in HostOpName]: (
    args: HostOps[K]["args"],
    connection: HostConnection,
  ) => HostOps[K]["result"] | Promise<HostOps[K]["result"]>;
};

export interface HostServerOptions {
  /** With no running job, no connection and no exit left unreported for this long, the host ends. */
  idleMs: number;
  /** Called once when the host should end (idle, or after shutdown answered). */
  onEnd: () => void;
}

export class HostServer implements JobListener {
  private readonly jobs = new Map<string, HostJob>();
  private readonly connections = new Set<HostConnection>();
  /** Ended jobs whose exit no connection has heard of yet: the host waits for someone to tell. */
  private readonly unreportedExits = new Set<string>();
  /** Per job, the keys of its last keyed writes (typed replies): each is typed once. */
  private readonly writeKeys = new Map<string, Set<string>>();
  /** Connections that take screen changes, each with the jobs whose screen it was told (since their start or exit). */
  private readonly screensKnown = new Map<HostConnection, WeakSet<HostJob>>();
  /** The connections that asked for no screens. */
  private readonly screenless = new WeakSet<HostConnection>();
  private idleTimer: NodeJS.Timeout | null = null;
  private ending = false;
  private readonly pace = new ScreenPace<HostJob>((jobs) => {
    for (const job of jobs) this.tellScreen(job);
  });

  constructor(private readonly options: HostServerOptions) {
    this.checkIdle();
  }

  serve(server: Server): void {
    server.on("connection", (socket: Socket) => {
      if (this.ending) {
        socket.destroy();
        return;
      }
      this.connections.add(
        new HostConnection(
          socket,
          (connection, line) => this.request(connection, line),
          (connection) => this.closed(connection),
        ),
      );
      this.checkIdle();
    });
  }

  /** Ends every job (SIGTERM, then SIGKILL for those that stay) and resolves once all have ended. */
  async endJobs(): Promise<void> {
    const running = [...this.jobs.values()].filter((job) => job.running);
    const allEnded = Promise.all(running.map((job) => job.ended));
    for (const job of running) job.kill("SIGTERM");
    const grace = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref());
    await Promise.race([allEnded, grace]);
    for (const job of running) job.kill("SIGKILL");
    await allEnded;
  }

  changed(job: HostJob): void {
    this.pace.changed(job);
  }

  exit(job: HostJob): void {
    // The last screen goes out before the exit, so whoever hears of the exit has what it showed.
    this.pace.forget(job);
    this.tellScreen(job);
    if (this.connections.size === 0) this.unreportedExits.add(job.id);
    this.broadcast({ event: "exit", id: job.id, exitCode: job.exitCode, signal: job.signal });
    for (const known of this.screensKnown.values()) known.delete(job);
    this.checkIdle();
  }

  /** Encodes the screen whole and as a change at most once each, for however many connections. */
  private tellScreen(job: HostJob): void {
    const taken = job.takeScreen();
    if (!taken) return;
    const { screen, before } = taken;
    let whole: string | null = null;
    let change: string | null | undefined;
    for (const connection of this.connections) {
      if (this.screenless.has(connection)) continue;
      const known = this.screensKnown.get(connection);
      if (before && known?.has(job)) {
        if (change === undefined) {
          const changed = screenChange(before, screen);
          change = changed && encodeLine({ event: "screen-change", id: job.id, change: changed });
        }
        if (change) {
          connection.sendLine(change);
          continue;
        }
      }
      whole ??= encodeLine({ event: "screen", id: job.id, screen });
      connection.sendLine(whole);
      known?.add(job);
    }
  }

  private broadcast(event: HostEvent): void {
    const line = encodeLine(event);
    for (const connection of this.connections) connection.sendLine(line);
  }

  private closed(connection: HostConnection): void {
    this.connections.delete(connection);
    this.screensKnown.delete(connection);
    for (const job of this.jobs.values()) job.unwatch(connection);
    this.checkIdle();
  }

  private request(connection: HostConnection, line: string): void {
    let id: number | null = null;
    const fail = (err: unknown) => {
      const known = err instanceof RoostError;
      if (!known) console.error("host: request failed:", err);
      connection.respond({
        id,
        ok: false,
        error: err instanceof Error ? err.message : String(err),
        code: known ? err.code : "internal",
      });
    };
    try {
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        throw new RoostError("bad_request", "not a JSON line");
      }
      if (typeof message !== "object" || message === null)
        throw new RoostError("bad_request", "not an object");
      const request = message as { id?: unknown; op?: unknown; args?: unknown; deadline?: unknown };
      if (typeof request.id === "number") id = request.id;
      else throw new RoostError("bad_request", "id must be a number");
      // Its caller gave up on it (the host was stopped meanwhile): acting now would act late, unseen.
      if (typeof request.deadline === "number" && Date.now() > request.deadline) return;
      if (!isHostOp(request.op)) throw new RoostError("bad_request", `unknown op ${String(request.op)}`);
      const op = request.op;
      const args = parseHostArgs(op, request.args);
      const handler = this.handlers[op] as (args: unknown, connection: HostConnection) => unknown;
      Promise.resolve(handler(args, connection)).then((result) => {
        connection.respond({ id, ok: true, result: result ?? null });
        // A watcher gets the output held for it only after the screen it replays.
        if (op === "watch") this.jobs.get((args as HostOps["watch"]["args"]).id)?.release(connection);
        if (op === "shutdown") this.end();
      }, fail);
    } catch (err) {
      fail(err);
    }
  }

  private job(id: string): HostJob {
    const job = this.jobs.get(id);
    if (!job) throw new RoostError("not_found", `no job ${id}`);
    return job;
  }

  private readonly handlers: Handlers = {
    hello: ({ screenChanges, screens }, connection) => {
      // Only ever turned on: the heartbeat's hellos ask nothing.
      if (screenChanges && !this.screensKnown.has(connection))
        this.screensKnown.set(connection, new WeakSet());
      if (screens === false) this.screenless.add(connection);
      return { pid: process.pid, protocol: HOST_PROTOCOL_VERSION };
    },
    spawn: (spec) => {
      const existing = this.jobs.get(spec.id);
      if (existing?.running) throw new RoostError("conflict", `job ${spec.id} is running`);
      if (!statSync(spec.cwd, { throwIfNoEntry: false })?.isDirectory()) {
        throw new RoostError("bad_request", `cwd ${spec.cwd} is not a directory`);
      }
      // A job spawned again under its id (a respawn) replaces its ended self.
      if (existing) this.drop(existing);
      mkdirSync(spec.dir, { recursive: true, mode: 0o700 });
      const job = new HostJob(spec, this);
      this.jobs.set(spec.id, job);
      this.checkIdle();
      return job.info();
    },
    write: ({ id, data, key }) => {
      const job = this.job(id);
      if (key === undefined || this.firstWrite(id, key)) job.write(data);
      return null;
    },
    resize: ({ id, cols, rows }) => {
      this.job(id).resize(cols, rows);
      return null;
    },
    kill: ({ id, signal }) => {
      this.job(id).kill(signal as NodeJS.Signals);
      return null;
    },
    list: (): HostJobInfo[] => {
      const infos = [...this.jobs.values()].map((job) => job.info());
      for (const info of infos) this.unreportedExits.delete(info.id);
      this.checkIdle();
      return infos;
    },
    screen: ({ id }) => this.job(id).screen(),
    serialize: ({ id }) => this.job(id).serialize(),
    watch: ({ id }, connection) => this.job(id).watch(connection),
    unwatch: ({ id }, connection) => {
      this.job(id).unwatch(connection);
      return null;
    },
    forget: ({ id }) => {
      const job = this.job(id);
      if (job.running) throw new RoostError("conflict", `job ${id} is running; kill it first`);
      this.drop(job);
      return null;
    },
    remove: async ({ id }) => {
      const job = this.jobs.get(id);
      if (!job) return null;
      if (job.running) {
        job.kill("SIGKILL");
        const patience = new Promise((resolve) => setTimeout(resolve, REMOVE_PATIENCE_MS).unref());
        await Promise.race([job.ended, patience]);
      }
      // A spawn under the same id may have taken the slot while this waited: that job stays.
      if (this.jobs.get(id) === job) this.drop(job);
      else job.dispose();
      return null;
    },
    shutdown: async () => {
      this.ending = true;
      await this.endJobs();
      return null;
    },
  };

  /** Whether the job's write with this key is new (keeps the last 100 keys of each job). */
  private firstWrite(id: string, key: string): boolean {
    const keys = this.writeKeys.get(id) ?? new Set<string>();
    this.writeKeys.set(id, keys);
    if (keys.has(key)) return false;
    keys.add(key);
    if (keys.size > WRITE_KEYS_KEPT) keys.delete(keys.values().next().value!);
    return true;
  }

  private drop(job: HostJob): void {
    this.writeKeys.delete(job.id);
    this.pace.forget(job);
    job.dispose();
    this.jobs.delete(job.id);
    this.unreportedExits.delete(job.id);
    this.checkIdle();
  }

  private isIdle(): boolean {
    return (
      this.connections.size === 0 &&
      this.unreportedExits.size === 0 &&
      ![...this.jobs.values()].some((job) => job.running)
    );
  }

  private checkIdle(): void {
    if (this.ending) return;
    if (!this.isIdle()) {
      if (this.idleTimer) clearTimeout(this.idleTimer);
      this.idleTimer = null;
      return;
    }
    this.idleTimer ??= setTimeout(() => {
      this.idleTimer = null;
      if (this.isIdle()) this.end();
    }, this.options.idleMs);
  }

  private end(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.ending = true;
    const ended = Promise.all([...this.connections].map((connection) => connection.end()));
    // A client that never closes its side does not keep the host alive.
    const patience = new Promise((resolve) => setTimeout(resolve, 1000).unref());
    Promise.race([ended, patience]).finally(() => {
      for (const job of this.jobs.values()) job.dispose();
      this.options.onEnd();
    });
  }
}
