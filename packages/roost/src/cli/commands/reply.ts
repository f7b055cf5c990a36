import { type ReplyArgs, type ReplyResult, RoostError } from "../../protocol/index.js";
import type { Command } from "../command.js";

export const reply: Command = {
  name: "reply",
  usage: "reply ID|NAME TEXT [--steer] [--request-id ID] [--json] | reply ID|NAME --send-held|--drop-held",
  summary:
    "Sends a reply to a job's agent (--steer: join the work under way). /stop stops the job. A terminal " +
    "agent's reply that came while it asked nothing is held: --send-held types it as the answer to what " +
    "it asks now, --drop-held drops it.",
  positionals: [1, 2],
  options: {
    steer: { type: "boolean" },
    "request-id": { type: "string" },
    "send-held": { type: "boolean" },
    "drop-held": { type: "boolean" },
  },
  run: async ({ positionals, values, client, print }) => {
    const held = values["send-held"] === true ? "send" : values["drop-held"] === true ? "drop" : undefined;
    const text = positionals[1];
    if ((held === undefined) === (text === undefined) || (values["send-held"] && values["drop-held"]))
      throw new RoostError("bad_request", "reply takes a TEXT, or --send-held, or --drop-held");
    const args: ReplyArgs = held ? { id: positionals[0]!, held } : { id: positionals[0]!, text };
    if (values.steer === true) args.mode = "steer";
    if (typeof values["request-id"] === "string") args.requestId = values["request-id"];
    const result = await (await client()).call("reply", args);
    print(replyLine(args.id, result), result);
    return 0;
  },
};

function replyLine(id: string, result: ReplyResult): string {
  if ("stopped" in result) return `stopped ${id}`;
  if ("dropped" in result) return `dropped the reply held for ${id}`;
  if ("held" in result)
    return `held: ${id} asks nothing now, so the reply was not typed; when it asks, send it with roost reply ${id} --send-held (or --drop-held)`;
  if ("duplicate" in result) return `already saved (reply ${result.seq ?? "?"})`;
  return `saved reply ${result.seq}`;
}
