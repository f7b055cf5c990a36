/**
 * `notify.command` run by a real daemon: once per transition (starts waiting, finishes) with the
 * event as one JSON line on its standard input and in variables, under a burst of 100 terminal
 * sessions; a slow, a missing or a failing command blocks nothing and is logged; `roost notify test`.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { NotifyEvent } from "../src/protocol/notify.js";
import { startTestDaemon, waitFor } from "./helpers/daemon.js";
import { killAll, processesMentioning } from "./helpers/leftovers.js";
import { receivedLines } from "./helpers/terminal.js";

/** A terminal agent that asks `[y/N]` and ends when answered. */
const ASKS = {
  command: [
    "/bin/sh",
    "-c",
    'printf "Proceed? [y/N] "; read -r a; printf "got [%s]\\n" "$a" >> "$ROOST_JOB_DIR/received.txt"',
  ],
  task: "argv",
  protocol: false,
};

/** A notify command that keeps each event's line and its variables in `out`. */
const keeping = (out: string) => [
  "/bin/sh",
  "-c",
  `line=$(cat); printf '%s\\t%s %s %s\\n' "$line" "$ROOST_NOTIFY_EVENT" "$ROOST_NOTIFY_ID" "$ROOST_NOTIFY_TEXT" >> ${out}`,
];

function kept(out: string): { event: NotifyEvent; env: string }[] {
  try {
    return readFileSync(out, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [json, env] = line.split("\t") as [string, string];
        return { event: JSON.parse(json) as NotifyEvent, env };
      });
  } catch {
    return [];
  }
}

// A hundred sessions started and answered take a while on a loaded machine: more than a file's usual test.
test("the notify command runs once per transition, with the event's JSON, under a burst of 100 sessions", {
  timeout: 300_000,
}, async () => {
  const daemon = await startTestDaemon({ config: { agentProfiles: { asks: ASKS } } });
  const out = join(daemon.home, "notified.txt");
  writeFileSync(
    join(daemon.home, "roost.json"),
    JSON.stringify({ agentProfiles: { asks: ASKS }, notify: { command: keeping(out), debounceMs: 200 } }),
  );
  const conn = await daemon.connect();
  try {
    // Ten at a time: a hundred processes started at once is a burst a loaded machine answers slowly.
    const ids: string[] = [];
    for (let batch = 0; batch < 10; batch++)
      ids.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, async (_, n) => {
            const answer = await conn.request("dispatch", {
              profile: "asks",
              name: `burst-${batch * 10 + n}`,
              cwd: daemon.home,
            });
            assert.equal(answer.ok, true, answer.error);
            return answer.result.id as string;
          }),
        )),
      );
    const of = (kind: string) => kept(out).filter((k) => k.event.event === kind);
    await waitFor("100 waiting notifications", () => of("waiting").length >= 100, 120_000);
    for (let batch = 0; batch < 100; batch += 10)
      await Promise.all(
        ids
          .slice(batch, batch + 10)
          .map((id) => conn.request("reply", { id, text: "n", requestId: `burst-${id}` })),
      );
    await waitFor("100 done notifications", () => of("done").length >= 100, 120_000);
    for (const id of ids) assert.deepEqual(receivedLines(join(daemon.stateDir, "jobs", id)), ["got [n]"]);

    // One more session, told of after every row above had settled for as long as the debounce:
    // anything the burst would still cause has come by then.
    const last = (await conn.request("dispatch", { profile: "asks", name: "last", cwd: daemon.home })).result
      .id as string;
    await waitFor(
      "the last session's notification",
      () => kept(out).some((k) => k.event.id === last),
      60_000,
    );
    const burst = kept(out).filter((k) => k.event.id !== last);
    assert.equal(burst.length, 200);
    for (const kind of ["waiting", "done"])
      assert.deepEqual(
        of(kind)
          .filter((k) => k.event.id !== last)
          .map((k) => k.event.id)
          .sort(),
        [...ids].sort(),
        `each session told once that it is ${kind}`,
      );
    const waiting = of("waiting").find((k) => k.event.id === ids[7])!;
    assert.deepEqual(
      { ...waiting.event, at: typeof waiting.event.at, cwd: waiting.event.cwd },
      {
        event: "waiting",
        id: ids[7],
        name: "burst-7",
        profile: "asks",
        cwd: daemon.home,
        text: "Proceed? [y/N]",
        question: "Proceed? [y/N]",
        choices: ["y", "n"],
        at: "string",
      },
    );
    assert.equal(waiting.env, `waiting ${ids[7]} Proceed? [y/N]`);
  } finally {
    conn.close();
    await daemon.stop();
  }
});

test("a slow, a missing or a failing notify command blocks nothing, its failure is in the daemon's log, and it ends with the daemon", async () => {
  const daemon = await startTestDaemon({ config: { agentProfiles: { asks: ASKS } } });
  const started = join(daemon.home, "slow-started.txt");
  const config = (command: string[] | undefined) =>
    writeFileSync(
      join(daemon.home, "roost.json"),
      JSON.stringify({
        agentProfiles: { asks: ASKS },
        ...(command ? { notify: { command, debounceMs: 50 } } : {}),
      }),
    );
  const log = () => readFileSync(join(daemon.stateDir, "daemon.log"), "utf8");
  let stopped = false;
  try {
    const none = await daemon.cli(["notify", "test"]);
    assert.equal(none.code, 1);
    assert.match(
      none.stderr,
      /roost notify: bad_request: no notify command: set "notify": \{"command": \[argv\]\}/,
    );

    // Slow: it reads its event and runs on past the test (a follow that names its file, so that the
    // test finds it and ends it); meanwhile the daemon goes on.
    config(["/bin/sh", "-c", `cat > /dev/null; echo started >> ${started}; exec tail -f ${started}`]);
    const conn = await daemon.connect();
    const first = (await conn.request("dispatch", { profile: "asks", name: "first", cwd: daemon.home }))
      .result.id as string;
    const second = (await conn.request("dispatch", { profile: "asks", name: "second", cwd: daemon.home }))
      .result.id as string;
    await waitFor(
      "both slow commands to be running",
      () => readFileSync(started, "utf8").split("\n").filter(Boolean).length === 2,
    );
    const reply = await conn.request("reply", { id: first, text: "y" });
    assert.equal(reply.ok, true);
    await waitFor(
      "the reply typed while the commands sleep",
      () => receivedLines(join(daemon.stateDir, "jobs", first)).length === 1,
    );
    assert.equal((await daemon.cli(["ls", "--json"])).code, 0);

    config(["/nonexistent/notify-me"]);
    await conn.request("reply", { id: second, text: "n" });
    await waitFor("the missing command in the log", () =>
      log().includes(
        "roost: notify: done of second: /nonexistent/notify-me could not run: spawn /nonexistent/notify-me ENOENT",
      ),
    );

    config(["/bin/sh", "-c", "echo oops >&2; exit 7"]);
    await conn.request("dispatch", { profile: "asks", name: "third", cwd: daemon.home });
    await waitFor("the failing command in the log", () =>
      log().includes("roost: notify: waiting of third: /bin/sh exited 7: oops"),
    );
    const failing = await daemon.cli(["notify", "test"]);
    assert.equal(failing.code, 1);
    assert.match(
      failing.stderr,
      /roost notify: notify_failed: \/bin\/sh -c echo oops >&2; exit 7: \/bin\/sh exited 7: oops/,
    );

    const out = join(daemon.home, "sample.txt");
    config(keeping(out));
    const ok = await daemon.cli(["notify", "test", "--json"]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(JSON.parse(ok.stdout), { command: keeping(out), code: 0, error: null });
    assert.equal(kept(out)[0]?.event.event, "test");
    assert.match(kept(out)[0]!.env, /^test test a sample notification/);
    conn.close();
    assert.ok(processesMentioning(started).length > 0, "the slow commands still run");
    await daemon.stop();
    stopped = true;
    await waitFor(
      "the slow commands to end with the daemon",
      () => processesMentioning(started).length === 0,
    );
  } finally {
    killAll(processesMentioning(started));
    if (!stopped) await daemon.stop();
  }
});
