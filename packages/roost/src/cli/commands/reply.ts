import type { ReplyArgs } from "../../protocol/index.js";
import type { Command } from "../command.js";

export const reply: Command = {
  name: "reply",
  usage: "reply ID|NAME TEXT [--steer] [--request-id ID] [--json]",
  summary: "Sends a reply to a job's agent (--steer: join the work under way). /stop stops the job.",
  positionals: [2, 2],
  options: { steer: { type: "boolean" }, "request-id": { type: "string" } },
  run: async ({ positionals, values, client, print }) => {
    const args: ReplyArgs = { id: positionals[0]!, text: positionals[1]! };
    if (values.steer === true) args.mode = "steer";
    if (typeof values["request-id"] === "string") args.requestId = values["request-id"];
    const result = await (await client()).call("reply", args);
    const human =
      "stopped" in result
        ? `stopped ${args.id}`
        : "duplicate" in result
          ? `already saved (reply ${result.seq ?? "?"})`
          : `saved reply ${result.seq}`;
    print(human, result);
    return 0;
  },
};
