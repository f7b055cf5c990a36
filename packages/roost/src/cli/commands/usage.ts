import { RoostError } from "../../protocol/errors.js";
import type { Command } from "../command.js";
import { parseSince, USAGE_GROUPINGS, type UsageGrouping, usageReport, usageTable } from "../usage-report.js";

export const usage: Command = {
  name: "usage",
  usage: "usage [--by session|profile|day] [--since DATE] [--json]",
  summary:
    'Tokens and cost of the sessions roost lists, summed by session (the default), profile or the day each began; --since DATE (YYYY-MM-DD or an ISO time) counts those begun since. Costs come from each model\'s price (roost.json "prices" over the defaults). roost.json "budgets" cap the same tokens or cost, per session or per day, stopping the session or telling you.',
  positionals: [0, 0],
  options: { by: { type: "string" }, since: { type: "string" } },
  run: async ({ values, client, print }) => {
    const by = (values.by as string | undefined) ?? "session";
    if (!(USAGE_GROUPINGS as readonly string[]).includes(by)) {
      throw new RoostError("bad_request", `--by must be one of ${USAGE_GROUPINGS.join(", ")} (got "${by}")`);
    }
    const sinceText = values.since as string | undefined;
    let since: { text: string; ms: number } | null = null;
    if (sinceText !== undefined) {
      const ms = parseSince(sinceText);
      if (ms === null) {
        throw new RoostError(
          "bad_request",
          `--since must be a day (YYYY-MM-DD) or an ISO 8601 time (got "${sinceText}")`,
        );
      }
      since = { text: sinceText, ms };
    }
    const { rows } = await (await client()).call("list", {});
    const report = usageReport(rows, by as UsageGrouping, since);
    print(report.total.sessions === 0 ? "no sessions to count" : usageTable(report), report);
    return 0;
  },
};
