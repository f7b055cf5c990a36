import { DaemonClient } from "../client/daemon-client.js";
import { attachTerminal } from "./attach.js";
import type { Command } from "./command.js";

/** Waits for one key on this terminal (raw), then gives the terminal back as it was. */
function anyKey(prompt: string): Promise<void> {
  const input = process.stdin;
  process.stdout.write(prompt);
  const wasRaw = input.isRaw === true;
  if (input.isTTY) input.setRawMode(true);
  input.resume();
  return new Promise((resolve) =>
    input.once("data", () => {
      if (input.isTTY) input.setRawMode(wasRaw);
      input.pause();
      resolve();
    }),
  );
}

/**
 * `roost attach` from the hub: the session's terminal here, on a connection of its own, until the
 * detach key. When it ends otherwise (the job ended meanwhile; the daemon went away), what it says
 * stays on screen until a key returns to the hub; a job that had ended shows its last screen until a key.
 */
export function attachFromHub(home: string): (id: string) => Promise<void> {
  return async (id) => {
    const client = await DaemonClient.connect({ home });
    try {
      const outcome = await attachTerminal(client, id);
      if (outcome === "ended" || outcome === "lost") await anyKey("[roost] press a key to return to the hub");
    } finally {
      client.close();
    }
  };
}

export const hub: Command = {
  name: "hub",
  usage: "hub",
  summary: "Opens the hub: every session live, replies, attach, stop, respawn, dispatch (? lists the keys).",
  positionals: [0, 0],
  run: async ({ home }) => {
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      process.stderr.write(
        "roost hub: bad_request: the hub needs a terminal (stdin and stdout); roost --help lists the other commands\n",
      );
      return 1;
    }
    // Loaded here: the other commands start without the terminal UI's modules.
    const { runHub } = await import("../hub/hub.js");
    await runHub({ home, startDaemon: true, attach: attachFromHub(home) });
    return 0;
  },
};
