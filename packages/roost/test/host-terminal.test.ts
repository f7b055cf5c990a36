import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { createConnection } from "node:net";
import { join } from "node:path";
import { after, before, test } from "node:test";
import xtermHeadless from "@xterm/headless";
import type { ProcessHost } from "../src/daemon/host/api.js";
import { connectHost } from "../src/daemon/host/index.js";
import { HOST_MAX_REQUEST_BYTES } from "../src/daemon/host/protocol.js";
import { isProcessAlive as isAlive } from "../src/home/process.js";
import { bashJob, type HostTestDir, hostTestDir, screenShows, waitFor } from "./fixtures/host-harness.js";

const { Terminal } = xtermHeadless;

let dir: HostTestDir;
let host: ProcessHost;
const exits = new Map<string, { exitCode: number | null; signal: number | null }>();

before(async () => {
  dir = hostTestDir();
  host = await dir.connect();
  host.on("exit", (id, exitCode, signal) => exits.set(id, { exitCode, signal }));
});

after(() => dir.cleanup());

test("a program's output shows on its screen, and input typed reaches it", async () => {
  const info = await host.spawn(bashJob(dir.stateDir, "echo", "echo ready; read x; echo got:$x; sleep 30"));
  assert.ok(info.pid > 0);
  assert.equal(info.running, true);
  await screenShows(host, "echo", (line) => line === "ready");
  await host.write("echo", "hello there\r");
  const screen = await screenShows(host, "echo", (line) => line === "got:hello there");
  assert.deepEqual(screen.lines.slice(0, 3), ["ready", "hello there", "got:hello there"]);
  assert.equal(screen.cols, 60);
  assert.equal(screen.rows, 10);
  assert.deepEqual(screen.cursor, { x: 0, y: 3 });
  assert.ok(screen.lastOutputAt >= info.startedAt);
});

test("the title a program sets, the alternate screen and bracketed paste show in the snapshot", async () => {
  await host.spawn(bashJob(dir.stateDir, "plain", "echo plain; sleep 30"));
  const plain = await screenShows(host, "plain", (line) => line === "plain");
  assert.equal(plain.title, "");
  assert.equal(plain.alternate, false);
  assert.equal(plain.bracketedPaste, false);

  await host.spawn(
    bashJob(
      dir.stateDir,
      "modes",
      "printf '\\e]0;Deploying v2\\a\\e[?2004h'; echo modes; read x; printf '\\e[?1049hfull'; sleep 30",
    ),
  );
  const before = await screenShows(host, "modes", (line) => line === "modes");
  assert.equal(before.title, "Deploying v2");
  assert.equal(before.bracketedPaste, true);
  assert.equal(before.alternate, false);
  await host.write("modes", "\r");
  const full = await screenShows(host, "modes", (line) => line === "full");
  assert.equal(full.alternate, true);
  assert.equal(full.title, "Deploying v2");
});

test("screen events come as the output changes the screen, to no connection that asked for none", async () => {
  const seen: string[][] = [];
  const listener = (id: string, screen: { lines: string[] }) => {
    if (id === "ticker") seen.push(screen.lines);
  };
  host.on("screen", listener);
  // An attached terminal's own connection: it reads a screen when it asks for one.
  const screenless = await connectHost({ stateDir: dir.stateDir, screens: false });
  let told = 0;
  screenless.on("screen", () => told++);
  await host.spawn(bashJob(dir.stateDir, "ticker", "echo one; read x; echo two; sleep 30"));
  await waitFor("the first screen event", () => seen.some((lines) => lines[0] === "one"));
  await host.write("ticker", "\r");
  await waitFor("the second screen event", () => seen.some((lines) => lines[2] === "two"));
  host.off("screen", listener);
  assert.equal(told, 0, "screens told to the connection that asked for none");
  assert.equal((await screenless.screen("ticker")).lines[2], "two");
  await screenless.close();
});

test("a resize reaches the program", async () => {
  await host.spawn(bashJob(dir.stateDir, "size", "stty size; read x; stty size; sleep 30"));
  await screenShows(host, "size", (line) => line === "10 60");
  await host.resize("size", 100, 30);
  await host.write("size", "\r");
  const screen = await screenShows(host, "size", (line) => line === "30 100");
  assert.equal(screen.cols, 100);
  assert.equal(screen.rows, 30);
});

test("exit codes and signals are reported, and the last screen stays until forgotten", async () => {
  await host.spawn(bashJob(dir.stateDir, "fails", "echo bye; exit 7"));
  await waitFor("exit 7", () => exits.get("fails"));
  assert.deepEqual(exits.get("fails"), { exitCode: 7, signal: null });
  const last = await host.screen("fails");
  assert.equal(last.lines[0], "bye");
  const listed = (await host.list()).find((job) => job.id === "fails");
  assert.equal(listed?.running, false);
  assert.equal(listed?.exitCode, 7);

  await host.spawn(bashJob(dir.stateDir, "killed", "echo up; sleep 30"));
  await screenShows(host, "killed", (line) => line === "up");
  await host.kill("killed");
  await waitFor("the SIGTERM exit", () => exits.get("killed"));
  assert.deepEqual(exits.get("killed"), { exitCode: null, signal: 15 });

  await host.forget("fails");
  assert.equal(
    (await host.list()).some((job) => job.id === "fails"),
    false,
  );
  await assert.rejects(host.screen("fails"), { code: "not_found" });
});

test("kill signals the whole process group, and SIGKILL ends a program that ignores SIGTERM", async () => {
  const info = await host.spawn(
    // The trap comes before the echo, so once the child's pid shows the shell ignores SIGTERM; the
    // child, forked before it, does not.
    bashJob(dir.stateDir, "stubborn", "sleep 30 & trap '' TERM; echo child:$!; wait; sleep 30"),
  );
  const screen = await screenShows(host, "stubborn", (line) => line.startsWith("child:"));
  const childPid = Number(screen.lines.find((line) => line.startsWith("child:"))!.slice(6));
  await host.kill("stubborn", "SIGTERM");
  // The background child got the group's SIGTERM; the shell ignores it and goes on.
  await waitFor("the child to end", () => !isAlive(childPid));
  assert.equal((await host.list()).find((job) => job.id === "stubborn")?.running, true);
  await host.kill("stubborn", "SIGKILL");
  await waitFor("the SIGKILL exit", () => exits.get("stubborn"));
  assert.deepEqual(exits.get("stubborn"), { exitCode: null, signal: 9 });
  assert.equal(isAlive(info.pid), false);
  // Killing an ended job changes nothing.
  await host.kill("stubborn", "SIGKILL");
});

test("serialize replays the screen, and a watcher gets the output that follows it", async () => {
  await host.spawn(
    bashJob(dir.stateDir, "watched", "printf '\\e[?2004h'; echo first; read x; echo second:$x; sleep 30"),
  );
  await screenShows(host, "watched", (line) => line === "first");
  const serialized = await host.serialize("watched");
  assert.match(serialized, /first/);
  assert.match(serialized, /\x1b\[\?2004h/);

  const output: string[] = [];
  host.on("output", (id, data) => {
    if (id === "watched") output.push(data);
  });
  const replay = await host.watch("watched");
  assert.match(replay, /first/);
  assert.doesNotMatch(replay, /second/);
  await host.write("watched", "x\r");
  await waitFor("the watched output", () => output.join("").includes("second:x"));
  await host.unwatch("watched");
});

test("a watcher of a program printing without pause gets its screen and then every line after it", async () => {
  await host.spawn(bashJob(dir.stateDir, "counter", "i=0; while :; do i=$((i+1)); echo $i; done"));
  await screenShows(host, "counter", (line) => Number(line) > 1000);
  const output: string[] = [];
  host.on("output", (id, data) => {
    if (id === "counter") output.push(data);
  });
  const replay = await host.watch("counter");
  await waitFor("some output after the replay", () => output.join("").length > 20_000 || undefined);
  await host.unwatch("counter");
  await host.kill("counter", "SIGKILL");
  // Drawn in a terminal of its own, as an attached one would: the count goes on without a gap.
  const replica = new Terminal({ cols: 60, rows: 10, scrollback: 100_000, allowProposedApi: true });
  await new Promise<void>((resolve) => replica.write(replay + output.join(""), resolve));
  const buffer = replica.buffer.active;
  const counts: number[] = [];
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y)?.translateToString(true) ?? "";
    if (/^\d+$/.test(line)) counts.push(Number(line));
  }
  // The last line may be cut short by the kill.
  counts.pop();
  assert.ok(counts.length > 1000, `${counts.length} lines`);
  const gap = counts.findIndex((n, i) => i > 0 && n !== counts[i - 1]! + 1);
  assert.equal(gap, -1, `after ${counts[gap - 1]} comes ${counts[gap]}`);
  replica.dispose();
});

test("bad requests get a clear error with its code", async () => {
  // A job that runs and one that ended, for the requests that conflict with each.
  await host.spawn(bashJob(dir.stateDir, "running", "echo up; sleep 600"));
  await host.spawn(bashJob(dir.stateDir, "ended", "true"));
  await waitFor("the ended job's exit", () => exits.get("ended"));
  const spec = bashJob(dir.stateDir, "bad", "true");
  await assert.rejects(host.spawn({ ...spec, command: [] }), { code: "bad_request", message: /command/ });
  await assert.rejects(host.spawn({ ...spec, cols: 0 }), { code: "bad_request", message: /cols/ });
  await assert.rejects(host.spawn({ ...spec, rows: 501 }), { code: "bad_request", message: /rows/ });
  await assert.rejects(host.spawn({ ...spec, cwd: `${dir.stateDir}/missing` }), {
    code: "bad_request",
    message: /cwd/,
  });
  await assert.rejects(host.write("nobody", "x"), { code: "not_found" });
  await assert.rejects(host.kill("running", "SIGNOPE" as NodeJS.Signals), { code: "bad_request" });
  await assert.rejects(host.spawn(bashJob(dir.stateDir, "running", "true")), { code: "conflict" });
  await assert.rejects(host.forget("running"), { code: "conflict" });
  await assert.rejects(host.write("ended", "x"), { code: "conflict" });
  // The host goes on answering.
  assert.ok((await host.list()).length > 0);
});

test("the terminal log keeps the raw output, capped and rotated", async () => {
  const spec = bashJob(
    dir.stateDir,
    "chatty",
    "head -c 2500 /dev/zero | tr '\\0' a; echo; echo end; sleep 30",
    {
      logMaxBytes: 1000,
    },
  );
  await host.spawn(spec);
  const log = join(spec.dir, "terminal.log");
  const older = `${log}.1`;
  await screenShows(host, "chatty", (line) => line === "end");
  // (The log may be missing for a moment while the host rotates it: waitFor reads again.)
  await waitFor("the log to be written", () => readFileSync(log, "utf8").endsWith("end\r\n"));
  // 2500 a's, then "\r\nend\r\n": two rotations of 1000 bytes each; the oldest 1000 are gone.
  assert.equal(readFileSync(older, "utf8"), "a".repeat(1000));
  assert.equal(readFileSync(log, "utf8"), `${"a".repeat(500)}\r\nend\r\n`);
  assert.equal(existsSync(`${log}.2`), false);
});

test("remove of a running job kills it and answers once nothing of it writes into its folder", async () => {
  const spec = bashJob(dir.stateDir, "flood", "while :; do echo flood; done");
  await host.spawn(spec);
  const log = join(spec.dir, "terminal.log");
  await waitFor("the log to be written", () => existsSync(log));
  await host.remove("flood");
  assert.equal(
    (await host.list()).some((job) => job.id === "flood"),
    false,
  );
  rmSync(spec.dir, { recursive: true });
  // Output still read out after the kill would be flushed within 100 ms.
  await new Promise((resolve) => setTimeout(resolve, 400));
  assert.equal(existsSync(spec.dir), false, "the folder is not made again");
  await host.remove("flood");
  await host.remove("never-was");
});

test("a malformed or unknown request on the raw socket gets bad_request and the connection goes on", async () => {
  const socket = createConnection(join(dir.stateDir, "host.sock"));
  const lines: string[] = [];
  let buffer = "";
  socket.on("data", (chunk) => {
    buffer += chunk;
    const parts = buffer.split("\n");
    buffer = parts.pop()!;
    lines.push(...parts);
  });
  socket.write(
    'not json\n{"id":1,"op":"fly"}\n{"id":2,"op":"screen","args":{"id":7}}\n{"id":3,"op":"list"}\n',
  );
  await waitFor("four answers", () => lines.length >= 4);
  const answers = lines.map((line) => JSON.parse(line));
  assert.deepEqual(
    answers.map((a) => [a.id, a.ok, a.code]),
    [
      [null, false, "bad_request"],
      [1, false, "bad_request"],
      [2, false, "bad_request"],
      [3, true, undefined],
    ],
  );
  assert.match(answers[1].error, /unknown op fly/);
  socket.destroy();
});

test("a program printing megabytes as fast as it can is read at the screen model's pace", async () => {
  const spec = bashJob(
    dir.stateDir,
    "flood",
    "head -c 3000000 /dev/urandom | base64 -w 100; echo flood-end; sleep 30",
  );
  await host.spawn(bashJob(dir.stateDir, "beside", "echo beside; sleep 600"));
  await screenShows(host, "beside", (line) => line === "beside");
  await host.spawn(spec);
  await screenShows(host, "flood", (line) => line.length === 60);
  // The host answers other requests meanwhile, and the output arrives whole, to its last line.
  assert.equal((await host.screen("beside")).lines[0], "beside");
  await screenShows(host, "flood", (line) => line === "flood-end");
  const log = join(spec.dir, "terminal.log");
  assert.ok(statSync(log).size <= 1024 * 1024);
  assert.equal(statSync(`${log}.1`).size, 1024 * 1024);
});

test("terminal sizes are taken up to their limits and refused past them", async () => {
  const info = await host.spawn(
    bashJob(dir.stateDir, "huge", "stty size; sleep 30", { cols: 1000, rows: 500 }),
  );
  await screenShows(host, "huge", (line) => line === "500 1000");
  await host.resize("huge", 2, 1);
  await assert.rejects(host.resize("huge", 1001, 10), { code: "bad_request", message: /cols/ });
  await assert.rejects(host.resize("huge", 1, 10), { code: "bad_request", message: /cols/ });
  await assert.rejects(host.resize("huge", 10, 501), { code: "bad_request", message: /rows/ });
  await assert.rejects(host.resize("huge", 10, 0), { code: "bad_request", message: /rows/ });
  const screen = await host.screen("huge");
  assert.deepEqual([screen.cols, screen.rows], [2, 1]);
  await host.kill(info.id, "SIGKILL");
});

test("a request line of 4 MiB is read; one byte more ends the connection", async () => {
  const limit = HOST_MAX_REQUEST_BYTES;
  assert.equal(limit, 4 * 1024 * 1024);
  // Resolves with the answer (events from other jobs passed over), or null when the host hangs up.
  const send = (line: string) =>
    new Promise<{ code?: string } | null>((resolve) => {
      const socket = createConnection(join(dir.stateDir, "host.sock"));
      let received = "";
      socket.on("data", (chunk) => {
        received += chunk;
        const answer = received
          .split("\n")
          .slice(0, -1)
          .map((text) => JSON.parse(text))
          .find((message) => "ok" in message);
        if (answer) {
          socket.destroy();
          resolve(answer);
        }
      });
      socket.on("error", () => {});
      socket.on("close", () => resolve(null));
      socket.write(`${line}\n`);
    });
  const atLimit = await send(`"${"x".repeat(limit - 2)}"`);
  assert.equal(atLimit?.code, "bad_request");
  assert.equal(await send(`"${"x".repeat(limit - 1)}"`), null);
  assert.ok((await host.list()).length > 0);
});

test("what a program prints just before it exits is kept, even when the host is busy reading others", async () => {
  const ids = ["last-1", "last-2", "last-3", "last-4"];
  for (const id of ids) {
    await host.spawn(bashJob(dir.stateDir, id, "head -c 1500000 /dev/urandom | base64 -w 100; echo THE-END"));
  }
  await waitFor("every flood to end", () => ids.every((id) => exits.has(id)), 60_000);
  for (const id of ids) {
    const screen = await host.screen(id);
    assert.equal(screen.lines.filter((line) => line !== "").at(-1), "THE-END", id);
    const log = readFileSync(join(dir.stateDir, "jobs", id, "terminal.log"), "utf8");
    assert.ok(log.endsWith("\r\nTHE-END\r\n"), id);
  }
});
