import { RoostError } from "../../protocol/index.js";
import type { Command } from "../command.js";

export const describe: Command = {
  name: "describe",
  usage: "describe ID|NAME [--lines N] [--json]",
  summary:
    "Everything about one job: how it runs, its state and why it failed, its family, its last output lines (--lines, default 20) and its events.",
  positionals: [1, 1],
  options: { lines: { type: "string" } },
  run: async ({ positionals, values, client, print }) => {
    const lines = typeof values.lines === "string" ? Number(values.lines) : undefined;
    if (lines !== undefined && !Number.isSafeInteger(lines))
      throw new RoostError("bad_request", "--lines must be a whole number");
    const result = await (await client()).call("describe", {
      id: positionals[0]!,
      ...(lines !== undefined ? { lines } : {}),
    });
    // The hub's detail view, as plain text; loaded here only, as the hub's modules are.
    const { detailBody } = await import("../../hub/detail-view.js");
    // The question wrapped to the terminal, or to 100 columns when the output is not one.
    const width = process.stdout.columns || 100;
    const body = detailBody({ id: result.row.id, result, error: null }, Date.now(), width).lines;
    const plain = body.map((line) => line.replace(/\x1b\[[0-9;]*m/g, "").trimEnd());
    print([`${result.row.name} (${result.row.id})`, ...plain].join("\n"), result);
    return 0;
  },
};
