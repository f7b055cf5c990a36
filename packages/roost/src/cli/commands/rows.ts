import type { Command } from "../command.js";
import { interruptedLine, rowsTable } from "../format.js";

export const ls: Command = {
  name: "ls",
  usage: "ls [--json]",
  summary:
    "Lists the jobs, one row each: id, name, state (as the hub words it), replies not taken, age, and what it says; under them, how to bring back jobs that were interrupted.",
  positionals: [0, 0],
  run: async ({ client, print }) => {
    const { rows } = await (await client()).call("list", {});
    const table = rows.length ? rowsTable(rows) : "no jobs (roost dispatch PROFILE [TASK] starts one)";
    print([table, interruptedLine(rows)].filter((line) => line !== null).join("\n"), rows);
    return 0;
  },
};

export const rename: Command = {
  name: "rename",
  usage: "rename ID|NAME NEW_NAME [--json]",
  summary: "Renames a job's row.",
  positionals: [2, 2],
  run: async ({ positionals, client, print }) => {
    const c = await client();
    const result = await c.call("rename", { id: positionals[0]!, name: positionals[1]! });
    // Names may be shared; the user is told, since the name alone no longer picks the job.
    const { rows } = await c.call("list", {});
    const others = rows.filter((r) => r.id !== result.id && r.name === result.name).map((r) => r.id);
    const shared = others.length
      ? ` (${others.join(", ")} ${others.length === 1 ? "has" : "have"} that name too: use ids)`
      : "";
    print(`renamed ${result.id} to ${result.name}${shared}`, { ...result, sameName: others });
    return 0;
  },
};

export const pin: Command = {
  name: "pin",
  usage: "pin ID|NAME [--off] [--json]",
  summary: "Pins a job's row to the top (--off unpins it).",
  positionals: [1, 1],
  options: { off: { type: "boolean" } },
  run: async ({ positionals, values, client, print }) => {
    const pinned = values.off !== true;
    const result = await (await client()).call("pin", { id: positionals[0]!, pinned });
    print(`${pinned ? "pinned" : "unpinned"} ${result.id}`, { ...result, pinned });
    return 0;
  },
};
