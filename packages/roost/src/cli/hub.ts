import { type Command, runCommand } from "./command.js";

/**
 * `roost attach`, when this build has it: found at run time, so that the hub works before and
 * after it lands. The hub hands it the terminal and takes it back when the user detaches.
 */
export async function findAttach(): Promise<((id: string) => Promise<void>) | undefined> {
  // Where the attach command may live: beside this file, or with the other commands.
  for (const specifier of ["./attach.js", "./commands/attach.js"]) {
    let module: Record<string, unknown>;
    try {
      module = (await import(specifier)) as Record<string, unknown>;
    } catch {
      continue;
    }
    const command = Object.values(module).find(
      (value): value is Command =>
        typeof value === "object" &&
        value !== null &&
        (value as Command).name === "attach" &&
        typeof (value as Command).run === "function",
    );
    if (!command) continue;
    return async (id) => {
      const code = await runCommand(command, [id]);
      if (code !== 0) throw new Error(`roost attach ${id} ended with exit code ${code}`);
    };
  }
  return undefined;
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
    await runHub({ home, startDaemon: true, attach: await findAttach() });
    return 0;
  },
};
