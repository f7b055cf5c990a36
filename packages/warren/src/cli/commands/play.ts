import { sleep } from "../../client/backoff.js";
import { isTransient } from "../../client/http.js";
import { WarrenClient } from "../../client/warren-client.js";
import { CODING_AGENTS, type CodingAgent, launchOf } from "../../play/coding-agent.js";
import { launchLine, playWithCodingAgent } from "../../play/coding-agent-play.js";
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

function parseCodingAgent(text: string | undefined): CodingAgent | undefined {
  if (text === undefined) return undefined;
  if (!(CODING_AGENTS as readonly string[]).includes(text)) {
    throw new UsageError(`--agent must be one of ${CODING_AGENTS.join(", ")} (got "${text}")`);
  }
  return text as CodingAgent;
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
    "warren play SERVER RUN AGENT | warren play SERVER AGENT --scenario NAME [--seed N] [--deadline S] [--token T] [--agent claude|codex|pi [--program PATH] [--print] [--dry-run] [-- ARGS...]]",
  summary:
    "Play one agent of a run (or of a run it creates, the others on their solution runners): on the terminal, as a roost protocol agent whose row asks each observation, or by a coding agent (--agent) through warren mcp.",
  async run(args, io) {
    // What follows `--` goes to the coding agent's program.
    const cut = args.indexOf("--");
    const extra = cut === -1 ? [] : args.slice(cut + 1);
    const { values, positionals } = parseOptions(cut === -1 ? args : args.slice(0, cut), {
      scenario: { type: "string" },
      seed: { type: "string" },
      deadline: { type: "string" },
      token: { type: "string" },
      agent: { type: "string" },
      program: { type: "string" },
      print: { type: "boolean" },
      "dry-run": { type: "boolean" },
    });
    const codingAgent = parseCodingAgent(values.agent as string | undefined);
    if (!codingAgent && (values.program || values.print || values["dry-run"] || cut !== -1)) {
      throw new UsageError(
        "--program, --print, --dry-run and -- ARGS are for a coding agent named by --agent",
      );
    }
    if (codingAgent === "pi" && values.print) {
      throw new UsageError("pi plays in its own window: --print is for claude and codex");
    }
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
    const client = new WarrenClient(server, { token: clientToken(values.token) });
    const makeRun = async () => {
      const run = await whenServing(() =>
        client.createRun(scenario!, {
          seed,
          controlled_agents: [agentId],
          npc_policy: "solution",
          ...(deadline === undefined ? {} : { deadline_s: deadline }),
        }),
      );
      io.err(`warren play: made ${run.run_id} (${scenario} seed ${seed})`);
      return run;
    };
    if (codingAgent) {
      const options = {
        program: values.program as string | undefined,
        print: values.print === true,
        token: clientToken(values.token),
        extra,
      };
      if (values["dry-run"]) {
        const runId = scenario === undefined ? positionals[1]! : "RUN";
        io.out(launchLine(launchOf(codingAgent, { server, runId, agentId }, options)));
        return 0;
      }
      const runId = scenario === undefined ? positionals[1]! : (await makeRun()).run_id;
      return playWithCodingAgent(client, codingAgent, { server, runId, agentId }, options, io.err);
    }
    const seat: Seat = RoostSeat.fromEnv() ?? new TerminalSeat((text) => process.stdout.write(text));
    const record = new PlayRecordFile(seat.recordPath);
    let runId = scenario === undefined ? positionals[1]! : record.current.run_id;
    if (runId === undefined) {
      // Made once: a player started again finds the run in its record.
      runId = (await makeRun()).run_id;
      record.update({ run_id: runId });
    }
    const session = client.agent(runId, agentId, { lease: record.current.lease, holder: "warren play" });
    const viewerUrl = `${client.baseUrl.replace(/\/+$/, "")}/runs/${encodeURIComponent(runId)}`;
    const status = await new Player(client, session, seat, record, { viewerUrl }).play();
    return status === "completed" ? 0 : 1;
  },
};
