import { type MergeArgs, type MergeStrategy, RoostError, statOf, statText } from "../../protocol/index.js";
import type { Command } from "../command.js";
import { diffLines } from "../diff-lines.js";

export const diff: Command = {
  name: "diff",
  usage: "diff ID|NAME [--stat] [--json]",
  summary: "Shows a worktree job's changes against its base (committed, staged, unstaged and untracked).",
  positionals: [1, 1],
  options: { stat: { type: "boolean" } },
  run: async ({ positionals, values, json, client, print }) => {
    const result = await (await client()).call("diff", { id: positionals[0]!, stat: values.stat === true });
    if (json) print("", result);
    // Coloured only on a terminal; each line is made safe before it is coloured.
    else
      process.stdout.write(
        `${diffLines(result, process.stdout.isTTY === true && !process.env.NO_COLOR).join("\n")}\n`,
      );
    return 0;
  },
};

export const merge: Command = {
  name: "merge",
  usage:
    "merge ID|NAME [--squash|--rebase] [--into BRANCH] [--message TEXT] [--commit-agent-changes] [--dry-run] [--json]",
  summary:
    "Brings a worktree job's work into its base branch (or --into) in the main checkout; refuses, changing nothing, on conflicts or uncommitted changes in the way.",
  positionals: [1, 1],
  options: {
    squash: { type: "boolean" },
    rebase: { type: "boolean" },
    into: { type: "string" },
    message: { type: "string" },
    "commit-agent-changes": { type: "boolean" },
    "dry-run": { type: "boolean" },
  },
  run: async ({ positionals, values, client, print }) => {
    if (values.squash && values.rebase) throw new RoostError("bad_request", "--squash or --rebase, not both");
    const strategy: MergeStrategy = values.squash ? "squash" : values.rebase ? "rebase" : "merge";
    const args: MergeArgs = {
      id: positionals[0]!,
      strategy,
      commitAgentChanges: values["commit-agent-changes"] === true,
      dryRun: values["dry-run"] === true,
    };
    if (typeof values.into === "string") args.into = values.into;
    if (typeof values.message === "string") args.message = values.message;
    const result = await (await client()).call("merge", args);
    const stat = statText(statOf(result.files));
    const agent = result.committedAgentChanges ? " (the agent's uncommitted changes committed first)" : "";
    print(
      result.dryRun
        ? `would ${strategy} ${result.branch} into ${result.into}: ${stat}${result.committedAgentChanges ? " (committing the agent's uncommitted changes first)" : ""}`
        : `${strategy === "merge" ? "merged" : strategy === "squash" ? "squashed" : "rebased"} ${result.branch} into ${result.into}: ${stat}${agent}`,
      result,
    );
    return 0;
  },
};

export const branches: Command = {
  name: "branches",
  usage: "branches [--json]",
  summary:
    "Lists the branches roost made (roost/…, saved work on roost/saved/…) in the jobs' repositories and this folder's, with the job on each.",
  positionals: [0, 0],
  run: async ({ client, print }) => {
    const { branches: found } = await (await client()).call("branches", { cwd: process.cwd() });
    const lines = found.map(
      (b) =>
        `${b.branch}  ${b.commit.slice(0, 10)}  ${b.job ? `${b.job.name} (${b.job.id})` : b.saved ? "saved work" : "no job"}  ${b.repository}`,
    );
    print(lines.length ? lines.join("\n") : "no roost branches", found);
    return 0;
  },
};
