import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { statePaths } from "../../src/home/paths.js";
import { isProcessAlive } from "../../src/home/process.js";
import { encodeLine, LIMITS, LineDecoder } from "../../src/protocol/index.js";
import { CLI } from "./built-cli.js";
import { killAll, processesMentioning } from "./leftovers.js";
import { waitFor } from "./wait-for.js";

/** The `roost` command as installed (`bin/roost.js`), on the build. */
export { CLI };

/** Any message from the daemon (a response or an event), as parsed JSON. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the daemon sent
export type Message = Record<string, any>;

/** A raw JSON-lines socket to the daemon: no client library between the test and the wire. */
export interface RawConnection {
  socket: Socket;
  /** Sends `{id, op, args}` and resolves with the whole response object. */
  request(op: string, args?: unknown): Promise<Message>;
  /** Writes one message as a line (or a raw string as is). */
  send(message: unknown): void;
  /** The next event (no `id`) that matches, waiting up to `timeoutMs`. */
  nextEvent(predicate?: (event: Message) => boolean, timeoutMs?: number): Promise<Message>;
  /** The next message of any kind that matches (responses to raw sends included). */
  nextMessage(predicate?: (message: Message) => boolean, timeoutMs?: number): Promise<Message>;
  /** Resolves when the daemon closed the connection. */
  closed: Promise<void>;
  close(): void;
}

export interface TestDaemon {
  home: string;
  stateDir: string;
  socketPath: string;
  /** The daemon process's pid (changes with `start`). */
  readonly pid: number;
  connect(): Promise<RawConnection>;
  /** Signals the daemon process only (its jobs live on in the process host), and waits for its exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the daemon again on the same home and waits for its socket. */
  start(): Promise<void>;
  /** Runs the built `roost ARGS` with this home (`input`: written to its standard input). */
  cli(
    args: string[],
    env?: Record<string, string>,
    input?: string,
  ): Promise<{ code: number; stdout: string; stderr: string }>;
  /** `shutdown --all` (the jobs and the host end), then removes the home. */
  stop(): Promise<void>;
}

export async function connectRaw(socketPath: string): Promise<RawConnection> {
  // EAGAIN: the socket's accept queue is full for a moment (a burst of connections); a client tries again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await connectOnce(socketPath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EAGAIN" || attempt === 50) throw err;
      await new Promise((r) => setTimeout(r, 10 * attempt));
    }
  }
}

function connectOnce(socketPath: string): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    socket.once("error", reject);
    socket.once("connect", () => {
      socket.off("error", reject);
      resolve(rawConnection(socket));
    });
  });
}

function rawConnection(socket: Socket): RawConnection {
  const decoder = new LineDecoder(LIMITS.maxLineBytes * 2);
  const inbox: Message[] = [];
  const waiters: { match: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
  let nextId = 1;
  let closedResolve: () => void = () => {};
  const closed = new Promise<void>((r) => (closedResolve = r));
  const take = (message: Message) => {
    const i = waiters.findIndex((w) => w.match(message));
    if (i === -1) inbox.push(message);
    else waiters.splice(i, 1)[0]!.resolve(message);
  };
  socket.on("data", (chunk: Buffer) => {
    for (const line of decoder.push(chunk)) if (line.trim()) take(JSON.parse(line) as Message);
  });
  socket.on("error", () => {});
  socket.on("close", () => closedResolve());
  const wait = (match: (m: Message) => boolean, timeoutMs: number, what: string) => {
    const i = inbox.findIndex(match);
    if (i !== -1) return Promise.resolve(inbox.splice(i, 1)[0]!);
    return new Promise<Message>((resolve, reject) => {
      const waiter = {
        match,
        resolve: (m: Message) => {
          clearTimeout(timer);
          resolve(m);
        },
      };
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(new Error(`no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.push(waiter);
    });
  };
  return {
    socket,
    closed,
    send: (message) => socket.write(typeof message === "string" ? message : encodeLine(message)),
    request: (op, args = {}) => {
      const id = nextId++;
      socket.write(encodeLine({ id, op, args }));
      return wait((m) => m.id === id && "ok" in m, 20_000, `response to ${op}`);
    },
    nextEvent: (predicate = () => true, timeoutMs = 30_000) =>
      wait((m) => typeof m.event === "string" && predicate(m), timeoutMs, "event"),
    nextMessage: (predicate = () => true, timeoutMs = 30_000) => wait(predicate, timeoutMs, "message"),
    close: () => socket.destroy(),
  };
}

/** Runs the built `roost ARGS`. */
export function runCli(
  home: string,
  args: string[],
  env: Record<string, string> = {},
  input?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, ROOST_HOME: home, ...env },
      stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    if (input !== undefined) child.stdin!.end(input);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * A real daemon (the built `roost daemon`) on a fresh home under the temp folder, with
 * `config` written to its roost.json first.
 */
export async function startTestDaemon(options: { config?: object; home?: string } = {}): Promise<TestDaemon> {
  const home = options.home ?? mkdtempSync(join(tmpdir(), "roost-test-"));
  if (options.config) writeFileSync(join(home, "roost.json"), JSON.stringify(options.config, null, 2));
  const paths = statePaths(home);
  let child: ChildProcess | null = null;
  /** Whether the last daemon this helper started has exited. */
  let gone = true;

  const start = async () => {
    const proc = spawn(process.execPath, [CLI, "daemon"], {
      env: { ...process.env, ROOST_HOME: home },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    proc.stderr.on("data", (d) => (stderr += d));
    gone = false;
    child = proc;
    proc.once("exit", () => {
      if (child === proc) gone = true;
    });
    // A test process that ends early (a timeout, a forced exit) takes the home's processes with it.
    const endWithTest = () => killAll(processesMentioning(home));
    process.once("exit", endWithTest);
    proc.once("exit", () => process.off("exit", endWithTest));
    await waitFor(
      "the daemon's socket",
      async () => {
        if (gone) throw new Error(`the daemon exited: ${stderr}`);
        const c = await connectRaw(paths.socket);
        c.close();
        return true;
      },
      // A loaded machine can take a while to start node, tsx and the daemon.
      60_000,
    ).catch((err) => {
      proc.kill("SIGKILL");
      throw new Error(`${(err as Error).message}\n${stderr}`);
    });
  };
  await start();

  const daemon: TestDaemon = {
    home,
    stateDir: paths.stateDir,
    socketPath: paths.socket,
    get pid() {
      return child?.pid ?? -1;
    },
    connect: () => connectRaw(paths.socket),
    kill: async (signal = "SIGTERM") => {
      child?.kill(signal);
      await waitFor("the daemon to exit", async () => (gone ? true : undefined), 30_000);
    },
    start,
    cli: (args, env, input) => runCli(home, args, env, input),
    stop: async () => {
      try {
        await shutdownAll();
      } catch (err) {
        // Not ended as asked: ended here all the same, so that no test leaves a daemon, a host or a
        // job behind (a live child would also keep the test's process from ever exiting). The home
        // stays, its logs with it.
        killAll(processesMentioning(home));
        child?.kill("SIGKILL");
        throw new Error(`the daemon on ${home} did not shut down: ${(err as Error).message}`);
      }
      rmSync(home, { recursive: true, force: true, maxRetries: 5 });
    },
  };
  /** `shutdown {all}` to whichever daemon runs on the home (started if none), until it has exited. */
  const shutdownAll = async () => {
    const running = await connectRaw(paths.socket)
      .then((c) => {
        c.close();
        return true;
      })
      .catch(() => false);
    if (!running) await start();
    const c = await connectRaw(paths.socket);
    try {
      // The daemon may be one a client started (not this helper's child): its own pid is waited for.
      const { pid } = (await c.request("stats")).result;
      await c.request("shutdown", { all: true });
      await waitFor("the daemon to exit", async () => (isProcessAlive(pid) ? undefined : true), 30_000);
    } finally {
      c.close();
    }
  };
  return daemon;
}

export { waitFor };

/**
 * Each job's id, token and folder. The database keeps only the token's hash: the token is read where
 * the job's process got it, its environment, and checked against the hash. Waits until every job
 * that runs has one ("" for a job that does not run).
 */
export async function jobSecrets(stateDir: string): Promise<{ id: string; token: string; dir: string }[]> {
  const { default: Database } = await import("better-sqlite3");
  const { tokenHash } = await import("../../src/daemon/jobs/job-token.js");
  interface Kept {
    id: string;
    tokenHash: string;
    dir: string;
    pid: number | null;
    lifecycle: string;
  }
  const tokenOf = (job: Kept): string | undefined => {
    if (job.pid === null) return undefined;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${job.pid}/environ`, "utf8");
    } catch {
      return undefined;
    }
    const token = environ
      .split("\0")
      .find((v) => v.startsWith("ROOST_JOB_TOKEN="))
      ?.slice("ROOST_JOB_TOKEN=".length);
    return token !== undefined && tokenHash(token) === job.tokenHash ? token : undefined;
  };
  return waitFor("every running job's token", async () => {
    const db = new Database(join(stateDir, "roost.db"), { readonly: true, fileMustExist: true });
    try {
      const jobs = (db.prepare("SELECT data FROM jobs").all() as { data: string }[]).map(
        (r) => JSON.parse(r.data) as Kept,
      );
      const secrets = [];
      for (const job of jobs) {
        const token = tokenOf(job);
        if (token === undefined && (job.lifecycle === "starting" || job.lifecycle === "running"))
          return undefined;
        secrets.push({ id: job.id, token: token ?? "", dir: job.dir });
      }
      return secrets;
    } finally {
      db.close();
    }
  });
}

const TEST_AGENT = fileURLToPath(new URL("../fixtures/daemon-agent.mjs", import.meta.url));

/**
 * Profiles the daemon tests use: `agent` (the fixture protocol agent, task typed as reply 1),
 * `holder` (the same, never acking), `sleeper` (`sleep 600`, a terminal job), `mute` (`sleep 600`
 * as a protocol job: a test's own connection speaks for it), `argv` (prints its
 * task and identity, then sleeps), `crasher` (exits 3 at once), `quitter` (exits 0 at once),
 * `asker` (a terminal job that asks `Reply N?` again and again: a reply is typed at each).
 */
export const TEST_PROFILES = {
  agent: { command: [process.execPath, TEST_AGENT], task: "type", protocol: true },
  holder: { command: [process.execPath, TEST_AGENT], task: "type", protocol: true, env: { AGENT_ACK: "0" } },
  sleeper: { command: ["sleep", "600"], task: "argv", protocol: false },
  asker: {
    command: ["/bin/sh", "-c", 'n=0; while :; do n=$((n+1)); printf "Reply %s? " "$n"; read -r line; done'],
    task: "argv",
    protocol: false,
  },
  mute: { command: ["sleep", "600"], task: "type", protocol: true },
  argv: {
    command: ["/bin/sh", "-c", 'echo "task=[$1] new=$ROOST_JOB_ID old=$PI_JOB_ID"; sleep 600', "sh"],
    task: "argv",
    protocol: false,
  },
  crasher: { command: "exit 3", task: "argv", protocol: false },
  quitter: { command: "echo bye", task: "argv", protocol: false },
  slowquit: { command: "sleep 1; echo slept", task: "argv", protocol: false },
  chatty: { command: "while :; do echo chatty; done", task: "argv", protocol: false },
} as const;

/** What the fixture agent received, in order (its job folder's received.jsonl). */
export function receivedBy(dir: string): { seq: number; text: string; mode?: string }[] {
  try {
    return readFileSync(join(dir, "received.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}
