import type { DispatchArgs } from "../../protocol/index.js";
import type { Command } from "../command.js";

export const dispatch: Command = {
  name: "dispatch",
  usage: "dispatch PROFILE [TASK] [--cwd DIR] [--name NAME] [--request-id ID] [--json]",
  summary: "Starts a job from a profile in roost.json, in DIR (default: this folder).",
  positionals: [1, 2],
  options: { cwd: { type: "string" }, name: { type: "string" }, "request-id": { type: "string" } },
  run: async ({ positionals, values, client, print }) => {
    const args: DispatchArgs = { profile: positionals[0]!, cwd: (values.cwd as string) ?? process.cwd() };
    if (positionals[1] !== undefined) args.task = positionals[1];
    if (typeof values.name === "string") args.name = values.name;
    if (typeof values["request-id"] === "string") args.requestId = values["request-id"];
    const result = await (await client()).call("dispatch", args);
    print(`started ${result.name} (${result.id})`, result);
    return 0;
  },
};

/** stop, rm and respawn: one job by id or name. */
function jobCommand(op: "stop" | "rm" | "respawn", summary: string, done: string): Command {
  return {
    name: op,
    usage: `${op} ID|NAME [--json]`,
    summary,
    positionals: [1, 1],
    run: async ({ positionals, client, print }) => {
      const result = await (await client()).call(op, { id: positionals[0]! });
      print(`${done} ${result.id}`, result);
      return 0;
    },
  };
}

export const stop = jobCommand(
  "stop",
  "Stops a job (SIGTERM, then SIGKILL); a reply does not start it again.",
  "stopped",
);
export const rm = jobCommand("rm", "Removes a job: its process, its row and its folder.", "removed");
export const respawn = jobCommand(
  "respawn",
  "Starts a job again (ending its process first if it runs).",
  "respawned",
);
