import { type DispatchArgs, LIMITS, type ResumedJob, removalNotes } from "../../protocol/index.js";
import type { Command } from "../command.js";

export const dispatch: Command = {
  name: "dispatch",
  usage:
    "dispatch PROFILE [TASK] [--cwd DIR] [--name NAME] [--request-id ID] [--worktree [--base REF] [--branch NAME]] [--json]",
  summary:
    'Starts a job from a profile in roost.json, in DIR (default: this folder); --worktree runs it in a git worktree of its own, on a new branch from REF (default HEAD). Refused (over_budget) while a per-day "stop" budget that counts the profile is spent.',
  positionals: [1, 2],
  options: {
    cwd: { type: "string" },
    name: { type: "string" },
    "request-id": { type: "string" },
    worktree: { type: "boolean" },
    base: { type: "string" },
    branch: { type: "string" },
  },
  run: async ({ positionals, values, client, print }) => {
    const args: DispatchArgs = { profile: positionals[0]!, cwd: (values.cwd as string) ?? process.cwd() };
    if (positionals[1] !== undefined) args.task = positionals[1];
    if (typeof values.name === "string") args.name = values.name;
    if (typeof values["request-id"] === "string") args.requestId = values["request-id"];
    if (values.worktree === true) args.worktree = true;
    if (typeof values.base === "string") args.base = values.base;
    if (typeof values.branch === "string") args.branch = values.branch;
    const result = await (await client()).call("dispatch", args);
    print(`started ${result.name} (${result.id})`, result);
    return 0;
  },
};

/** stop: one job by id or name. */
function jobCommand(op: "stop", summary: string, done: string): Command {
  return {
    name: op,
    usage: `${op} ID|NAME [--json]`,
    summary,
    positionals: [1, 1],
    run: async ({ positionals, client, print }) => {
      const result = await (await client()).call(op, { id: positionals[0]! });
      print(`${done} ${result.id}`, result);
      return 0;
    },
  };
}

export const stop = jobCommand(
  "stop",
  "Stops a job (SIGTERM, then SIGKILL); a reply does not start it again.",
  "stopped",
);
export const rm: Command = {
  name: "rm",
  usage: "rm ID|NAME [--force] [--delete-branch] [--json]",
  summary:
    "Removes a job: its process, its row and its folder. A worktree with uncommitted or unmerged work is refused unless --force, which saves uncommitted changes on roost/saved/NAME; the branch is kept unless --delete-branch.",
  positionals: [1, 1],
  options: { force: { type: "boolean" }, "delete-branch": { type: "boolean" } },
  run: async ({ positionals, values, client, print }) => {
    const result = await (await client()).call("rm", {
      id: positionals[0]!,
      force: values.force === true,
      deleteBranch: values["delete-branch"] === true,
    });
    const notes = removalNotes(result);
    print(`removed ${result.id}${notes.length ? `; ${notes.join("; ")}` : ""}`, result);
    return 0;
  },
};
export const respawn: Command = {
  name: "respawn",
  usage: "respawn ID|NAME [--fresh] [--json]",
  summary:
    'Starts a job again (ending its process first if it runs); Claude Code and a profile with resume take up their conversation, unless --fresh. Refused (over_budget) while a "stop" budget that counts the job is spent (--fresh: its own usage counts from nothing).',
  positionals: [1, 1],
  options: { fresh: { type: "boolean" } },
  run: async ({ positionals, values, client, print }) => {
    const result = await (await client()).call("respawn", {
      id: positionals[0]!,
      fresh: values.fresh === true,
    });
    print(`respawned ${result.id}${values.fresh === true ? " fresh" : ""}`, result);
    return 0;
  },
};

/** How a job that came back started: taking up its conversation, fresh (and why), or its command anew. */
function howItCameBack(job: ResumedJob): string {
  if (job.restart === "reruns") return ", its command run anew";
  if (job.resume === null) return "";
  return job.resume.resumed ? ", taking up its conversation" : `, ${job.resume.note}`;
}

export const resume: Command = {
  name: "resume",
  usage: "resume NAME… | --all [--json]",
  summary:
    "Starts interrupted jobs again (their process went down with roost or the machine), as respawn does: each takes up its conversation and gets the replies waiting for it. --all: every interrupted job. Says which came back and which could not, and why; exits 1 if one could not. resumeAfterReboot: true in roost.json has the daemon do it as it starts.",
  positionals: [0, LIMITS.resumeJobs],
  options: { all: { type: "boolean" } },
  run: async ({ positionals, values, client, print }) => {
    const all = values.all === true;
    const result = await (await client()).call("resume", { ids: positionals, all });
    const lines = [
      ...result.resumed.map((job) => `resumed ${job.name} (${job.id})${howItCameBack(job)}`),
      ...result.notResumed.map((job) => `not resumed ${job.job}: ${job.code}: ${job.error}`),
    ];
    print(lines.length ? lines.join("\n") : "nothing to resume: no job is interrupted", result);
    return result.notResumed.length > 0 ? 1 : 0;
  },
};

export const adopt: Command = {
  name: "adopt",
  usage: "adopt ID [--name NAME] [--json]",
  summary:
    "Makes a job of what the store does not know (roost doctor names it: a database brought back from an older backup): a process the host runs becomes a row read from its screen; a job folder alone, an ended row showing its last screen.",
  positionals: [1, 1],
  options: { name: { type: "string" } },
  run: async ({ positionals, values, client, print }) => {
    const name = typeof values.name === "string" ? values.name : undefined;
    const result = await (await client()).call("adopt", {
      id: positionals[0]!,
      ...(name !== undefined ? { name } : {}),
    });
    print(`adopted ${result.id} as ${result.name} (${result.lifecycle})`, result);
    return 0;
  },
};
