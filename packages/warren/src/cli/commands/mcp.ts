import { WarrenClient } from "../../client/warren-client.js";
import { McpSeat } from "../../mcp/mcp-seat.js";
import { serveMcp } from "../../mcp/mcp-server.js";
import { clientToken } from "../client-options.js";
import { type CliCommand, UsageError } from "../command.js";
import { parseOptions, parseSeed } from "../parse-options.js";
import { parsePolicies } from "./run.js";

export const mcpCommand: CliCommand = {
  name: "mcp",
  usage:
    "warren mcp --server URL --agent ID (--run ID | --scenario NAME [--seed N] [--policy AGENT=POLICY]...) [--token T]",
  summary:
    "Serve one agent of a run as MCP tools over stdio (its catalogue, observe, sleep, noop), for any MCP client; with --scenario it makes the run, the others on their solution runners.",
  async run(args, io) {
    const { values, positionals } = parseOptions(args, {
      server: { type: "string" },
      run: { type: "string" },
      agent: { type: "string" },
      scenario: { type: "string" },
      seed: { type: "string" },
      policy: { type: "string", multiple: true },
      token: { type: "string" },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const server = values.server as string | undefined;
    const agentId = values.agent as string | undefined;
    const runFlag = values.run as string | undefined;
    const scenario = values.scenario as string | undefined;
    if (!server || !agentId) throw new UsageError("name --server URL and --agent ID");
    if ((runFlag === undefined) === (scenario === undefined)) {
      throw new UsageError("name either --run ID (an existing run) or --scenario NAME (a new one)");
    }
    if (runFlag !== undefined && (values.seed !== undefined || values.policy !== undefined)) {
      throw new UsageError("--seed and --policy are for a run made with --scenario");
    }
    const client = new WarrenClient(server, { token: clientToken(values.token) });
    let runId = runFlag;
    if (runId === undefined) {
      const seed = parseSeed(values.seed as string | undefined, 1);
      const policies = parsePolicies((values.policy as string[] | undefined) ?? []);
      const run = await client.createRun(scenario!, {
        seed,
        controlled_agents: [agentId],
        npc_policy: Object.keys(policies).length > 0 ? policies : "solution",
      });
      runId = run.run_id;
      io.err(`warren mcp: made ${runId} (${scenario} seed ${seed}), playing ${agentId}`);
    }
    const session = client.agent(runId, agentId, { holder: "warren mcp" });
    await serveMcp(new McpSeat(session));
    return 0;
  },
};
