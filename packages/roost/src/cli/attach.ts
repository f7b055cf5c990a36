/**
 * `roost attach ID`: the job's terminal in this one. The screen as it is now is replayed, then the
 * terminal is live: keys go to the program, a resize reaches it (SIGWINCH), its output comes here.
 * Ctrl-] detaches and leaves the job running. A job that ended shows its last screen and says so.
 * `attachTerminal` is the same for a caller with its own streams (the hub).
 */
import type { DaemonClient } from "../client/daemon-client.js";
import {
  type AttachResult,
  DETACH_KEY,
  DETACH_KEY_NAME,
  type EventMessage,
  RoostError,
} from "../protocol/index.js";
import type { Command } from "./command.js";

export interface AttachStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean; isRaw?: boolean; setRawMode?(raw: boolean): unknown };
  output: NodeJS.WritableStream & { columns?: number; rows?: number; isTTY?: boolean };
}

/** How an attach ended: the user detached, the job ended, or the daemon went away. */
export type AttachOutcome = "detached" | "ended" | "lost";

/** Leaves the modes a program may have set in the user's terminal (alternate screen, mouse, paste). */
const RESET_MODES = "\x1b[0m\x1b[?1049l\x1b[?2004l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?25h";

function note(streams: AttachStreams, text: string): void {
  streams.output.write(`\r\n[roost] ${text}\r\n`);
}

export async function attachTerminal(
  client: DaemonClient,
  id: string,
  streams: AttachStreams = { input: process.stdin, output: process.stdout },
): Promise<AttachOutcome> {
  const { input, output } = streams;
  const size = output.columns && output.rows ? { cols: output.columns, rows: output.rows } : {};
  const result = (await client.call("attach", { id, ...size })) as AttachResult;
  const name = `${result.name} (${result.id})`;
  if (result.ended) {
    output.write(result.screen);
    output.write(RESET_MODES);
    const how = result.exitCode === null ? "" : `, exit code ${result.exitCode}`;
    note(
      streams,
      result.screen === ""
        ? `${name} is ${result.lifecycle}${how}; no screen of it was kept`
        : `${name} is ${result.lifecycle}${how}: this is its last screen`,
    );
    return "ended";
  }
  let keyboard = result.keyboard;
  output.write(
    `[roost] attached to ${name}; ${DETACH_KEY_NAME} detaches` +
      (keyboard ? "" : " (watching: another attached terminal has the keyboard)") +
      "\r\n",
  );
  output.write(result.screen);

  const wasRaw = input.isRaw === true;
  return new Promise<AttachOutcome>((resolve) => {
    let finished = false;
    // Keys go out one request after another, in order.
    let typing: Promise<unknown> = Promise.resolve();
    const type = (data: string) => {
      if (!keyboard || data === "") return;
      typing = typing.then(() => client.call("attach-input", { id: result.id, data }).catch(() => {}));
    };
    const resize = () => {
      if (keyboard && output.columns && output.rows)
        void client
          .call("attach-resize", { id: result.id, cols: output.columns, rows: output.rows })
          .catch(() => {});
    };
    const onKeys = (chunk: Buffer | string) => {
      const data = chunk.toString();
      const at = data.indexOf(DETACH_KEY);
      if (at === -1) return type(data);
      type(data.slice(0, at));
      void typing.then(() => finish("detached"));
    };
    const onEvent = (event: EventMessage) => {
      if (event.id !== result.id) return;
      if (event.event === "terminal-output") output.write(String(event.data));
      else if (event.event === "terminal-keyboard") {
        keyboard = true;
        resize();
        note(streams, "you have the keyboard now");
      } else if (event.event === "terminal-end") finish("ended", event.exitCode as number | null);
    };
    const onClose = () => finish("lost");
    const finish = (outcome: AttachOutcome, exitCode: number | null = null) => {
      if (finished) return;
      finished = true;
      input.off("data", onKeys);
      output.off("resize", resize);
      client.off("event", onEvent).off("close", onClose);
      if (input.isTTY && input.setRawMode) input.setRawMode(wasRaw);
      input.pause();
      output.write(RESET_MODES);
      if (outcome === "detached") {
        void client.call("detach", { id: result.id }).catch(() => {});
        note(streams, `detached from ${name}; it keeps running (roost attach ${result.id} to come back)`);
      } else if (outcome === "ended") {
        note(streams, `${name} ended${exitCode === null ? "" : ` (exit code ${exitCode})`}`);
      } else {
        note(
          streams,
          `the connection to the daemon was lost; ${name} keeps running: roost attach ${result.id}`,
        );
      }
      resolve(outcome);
    };
    client.on("event", onEvent).on("close", onClose);
    output.on("resize", resize);
    if (input.isTTY && input.setRawMode) input.setRawMode(true);
    input.on("data", onKeys);
    input.resume();
  });
}

export const attach: Command = {
  name: "attach",
  usage: "attach ID|NAME",
  summary: `Takes a job's terminal here: its screen, then live keys and output. ${DETACH_KEY_NAME} detaches; the job keeps running.`,
  positionals: [1, 1],
  run: async ({ positionals, client }) => {
    if (!process.stdin.isTTY)
      throw new RoostError("bad_request", "attach needs a terminal on stdin (run it from a shell)");
    const outcome = await attachTerminal(await client(), positionals[0]!);
    return outcome === "lost" ? 1 : 0;
  },
};
