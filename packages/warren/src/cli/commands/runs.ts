import { WarrenClient } from "../../client/warren-client.js";
import { clientToken } from "../client-options.js";
import { type CliCommand, UsageError } from "../command.js";
import { parseOptions } from "../parse-options.js";

/** `warren runs ls|rm`: a server's runs, listed or deleted, from the command line. */
export const runsCommand: CliCommand = {
  name: "runs",
  usage: "warren runs ls --server URL [--json] | warren runs rm RUN... --server URL [--token T]",
  summary: "List a server's runs, or delete runs (a run still going ends as deleted and frees its slot).",
  async run(args, io) {
    const { values, positionals } = parseOptions(args, {
      server: { type: "string" },
      token: { type: "string" },
      json: { type: "boolean" },
    });
    const [action, ...runIds] = positionals;
    const server = values.server as string | undefined;
    if (server === undefined) throw new UsageError("name the server with --server URL");
    const client = new WarrenClient(server, { token: clientToken(values.token) });
    if (action === "ls" && runIds.length === 0) {
      const runs = await client.runs();
      if (values.json) io.out(JSON.stringify(runs, null, 2));
      else for (const run of runs) io.out(`${run.run_id}  ${run.status}  ${run.scenario} seed ${run.seed}`);
      return 0;
    }
    if (action !== "rm" || runIds.length === 0)
      throw new UsageError('say "ls", or "rm" and the runs to delete');
    for (const runId of runIds) {
      const run = await client.deleteRun(runId);
      io.out(`${run.run_id}  ${run.status}  ${run.status_reason}`);
    }
    return 0;
  },
};
