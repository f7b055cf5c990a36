import { text as readAll } from "node:stream/consumers";
import { type ReplyArgs, type ReplyResult, RoostError } from "../../protocol/index.js";
import type { Command } from "../command.js";

export const reply: Command = {
  name: "reply",
  usage:
    "reply ID|NAME TEXT|- [--steer] [--start] [--request-id ID] [--json] | reply ID|NAME --send-held|--drop-held",
  summary:
    "Sends a reply to a job's agent (--steer: join the work under way; -: the text from standard input). " +
    "/stop stops the job. A finished job that runs its command anew (ls: its row does not say it resumes) " +
    "is started again only with --start. A terminal agent's reply that came while it asked nothing is " +
    "held: --send-held types it as the answer to what it asks now, --drop-held drops it. " +
    'Refused (over_budget) while a "stop" budget in roost.json that counts the job is spent.',
  positionals: [1, 2],
  options: {
    steer: { type: "boolean" },
    start: { type: "boolean" },
    "request-id": { type: "string" },
    "send-held": { type: "boolean" },
    "drop-held": { type: "boolean" },
  },
  run: async ({ positionals, values, client, print }) => {
    const held = values["send-held"] === true ? "send" : values["drop-held"] === true ? "drop" : undefined;
    const given = positionals[1];
    if ((held === undefined) === (given === undefined) || (values["send-held"] && values["drop-held"]))
      throw new RoostError(
        "bad_request",
        "reply takes a TEXT (or - to read it from standard input), or --send-held, or --drop-held",
      );
    // `-`: read whole from standard input (a reply longer than a command line's word can be).
    const text = given === "-" ? (await readAll(process.stdin)).replace(/\r?\n$/, "") : given;
    const args: ReplyArgs = held ? { id: positionals[0]!, held } : { id: positionals[0]!, text };
    if (values.steer === true) args.mode = "steer";
    if (values.start === true) args.start = true;
    if (typeof values["request-id"] === "string") args.requestId = values["request-id"];
    const result = await (await client()).call("reply", args);
    print(replyLine(args.id, result), result);
    return 0;
  },
};

/** What starting it again for the reply was, said before what became of the reply. */
function startedLine(id: string, result: ReplyResult): string {
  if (!("started" in result) || result.started === undefined) return "";
  return result.started === "resumes" ? `${id} resumes; ` : `${id} started again (its command runs anew); `;
}

function replyLine(id: string, result: ReplyResult): string {
  const started = startedLine(id, result);
  if ("stopped" in result) return `stopped ${id}`;
  if ("dropped" in result) return `dropped the reply held for ${id}`;
  if ("ended" in result)
    return `${started}it ended (${result.ended}) before it asked anything, so the reply was not typed`;
  if ("held" in result && result.asks === "other")
    return `${started}held: ${id} asks something else now, so the reply was not given as its answer; send it with roost reply ${id} --send-held (or --drop-held)`;
  if ("held" in result)
    return `${started}held: ${id} asks nothing now, so the reply was not typed; when it asks, send it with roost reply ${id} --send-held (or --drop-held)`;
  if ("duplicate" in result) return `already saved (reply ${result.seq ?? "?"})`;
  return `${started}saved reply ${result.seq}`;
}
