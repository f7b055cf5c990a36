import { sleep } from "../../client/backoff.js";
import { isTransient } from "../../client/http.js";
import { WarrenClient } from "../../client/warren-client.js";
import { PlayRecordFile } from "../../play/play-record.js";
import { Player } from "../../play/player.js";
import { RoostSeat } from "../../play/roost-seat.js";
import type { Seat } from "../../play/seat.js";
import { TerminalSeat } from "../../play/terminal-seat.js";
import { clientToken } from "../client-options.js";
import { type CliCommand, UsageError } from "../command.js";
import { parseOptions, parseSeed } from "../parse-options.js";

function parseDeadline(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(text) || !(Number(text) > 0)) {
    throw new UsageError(`--deadline must be a positive number of seconds (got "${text}")`);
  }
  return Number(text);
}

/** How long a player started beside its server waits for it to listen. */
const SERVER_START_MS = 30_000;

/** A first request, tried again while the server is not up yet (started at the same moment). */
async function whenServing<T>(request: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + SERVER_START_MS;
  for (;;) {
    try {
      return await request();
    } catch (error) {
      if (!isTransient(error) || Date.now() > deadline) throw error;
      await sleep(250);
    }
  }
}

export const playCommand: CliCommand = {
  name: "play",
  usage:
    "warren play SERVER RUN AGENT | warren play SERVER AGENT --scenario NAME [--seed N] [--deadline S] [--token T]",
  summary:
    "Play one agent of a run (or of a run it creates, the others on their solution runners): on the terminal, or as a roost protocol agent whose row asks each observation.",
  async run(args, io) {
    const { values, positionals } = parseOptions(args, {
      scenario: { type: "string" },
      seed: { type: "string" },
      deadline: { type: "string" },
      token: { type: "string" },
    });
    const scenario = values.scenario as string | undefined;
    const wanted = scenario === undefined ? 3 : 2;
    if (positionals.length !== wanted) {
      throw new UsageError(scenario === undefined ? "name SERVER, RUN and AGENT" : "name SERVER and AGENT");
    }
    if (scenario === undefined && (values.seed !== undefined || values.deadline !== undefined)) {
      throw new UsageError("--seed and --deadline are for a run made with --scenario");
    }
    const seed = parseSeed(values.seed as string | undefined, 1);
    const deadline = parseDeadline(values.deadline as string | undefined);
    const server = positionals[0]!;
    const agentId = positionals.at(-1)!;
    const seat: Seat = RoostSeat.fromEnv() ?? new TerminalSeat((text) => process.stdout.write(text));
    const record = new PlayRecordFile(seat.recordPath);
    const client = new WarrenClient(server, { token: clientToken(values.token) });
    let runId = scenario === undefined ? positionals[1]! : record.current.run_id;
    if (runId === undefined) {
      // Made once: a player started again finds the run in its record.
      const run = await whenServing(() =>
        client.createRun(scenario!, {
          seed,
          controlled_agents: [agentId],
          npc_policy: "solution",
          ...(deadline === undefined ? {} : { deadline_s: deadline }),
        }),
      );
      runId = run.run_id;
      record.update({ run_id: runId });
      io.err(`warren play: made ${runId} (${scenario} seed ${seed})`);
    }
    const session = client.agent(runId, agentId, { lease: record.current.lease, holder: "warren play" });
    const viewerUrl = `${client.baseUrl.replace(/\/+$/, "")}/runs/${encodeURIComponent(runId)}`;
    const status = await new Player(client, session, seat, record, { viewerUrl }).play();
    return status === "completed" ? 0 : 1;
  },
};
