import { type BoardTask, RoostError, type TaskResult, terminalSafe } from "../../protocol/index.js";
import type { Command } from "../command.js";

const USAGE = "tasks [list|add TITLE|drop ID|assign ID SESSION] [--detail T] [--after ID,..] [--json]";

/** A task on one line: id, state, title, and who holds it or what it waits on (safe for the terminal). */
export function taskLine(task: BoardTask): string {
  const state = task.blocked ? "blocked" : task.state;
  const holder = task.owner ? `  [${task.owner.name}]` : "";
  const waits = task.after.length ? `  (after ${task.after.map((id) => `#${id}`).join(", ")})` : "";
  const assigned = task.assigned && task.state === "open" ? `  (assigned to ${task.assigned.name})` : "";
  const result = task.result ? `: ${task.result}` : "";
  return terminalSafe(`#${task.id}  ${state.padEnd(7)}  ${task.title}${result}${holder}${waits}${assigned}`);
}

function afterIds(value: string | boolean | undefined): string[] | undefined {
  if (typeof value !== "string") return undefined;
  const ids = value
    .split(",")
    .map((id) => id.trim().replace(/^#/, ""))
    .filter(Boolean);
  return ids.length ? ids : undefined;
}

function needs(positionals: string[], count: number, what: string): void {
  if (positionals.length !== count) throw new RoostError("bad_request", `${what}\nusage: roost ${USAGE}`);
}

export const tasks: Command = {
  name: "tasks",
  usage: USAGE,
  summary: "The shared task board: lists it, adds a task, drops one, or assigns one to a session.",
  positionals: [0, 3],
  options: { detail: { type: "string" }, after: { type: "string" } },
  run: async ({ positionals, values, client, print }) => {
    const [action = "list", ...rest] = positionals;
    let result: TaskResult;
    let human: string;
    const c = await client();
    switch (action) {
      case "list":
      case "ls":
        needs(rest, 0, "list takes no arguments");
        result = await c.call("task", { action: "list" });
        human = result.tasks.length ? result.tasks.map(taskLine).join("\n") : "no tasks";
        break;
      case "add": {
        needs(rest, 1, "add takes the task's title");
        const after = afterIds(values.after);
        result = await c.call("task", {
          action: "add",
          title: rest[0]!,
          ...(typeof values.detail === "string" ? { detail: values.detail } : {}),
          ...(after ? { after } : {}),
        });
        human = `added ${taskLine(result.task!)}`;
        break;
      }
      case "drop":
        needs(rest, 1, "drop takes a task id");
        result = await c.call("task", { action: "drop", id: rest[0]! });
        human = `dropped ${taskLine(result.task!)}`;
        break;
      case "assign":
        needs(rest, 2, "assign takes a task id and a session (id or name)");
        result = await c.call("task", { action: "assign", id: rest[0]!, to: rest[1]! });
        human =
          result.task?.assigned &&
          result.sent !== undefined &&
          ["delivered", "queued", "started"].includes(result.sent)
            ? `assigned #${result.task.id} to ${result.task.assigned.name} (${result.sent})`
            : `not assigned: the session was not reached (${result.sent})`;
        break;
      default:
        throw new RoostError(
          "bad_request",
          `unknown action ${JSON.stringify(action)}\nusage: roost ${USAGE}`,
        );
    }
    print(human, result);
    return 0;
  },
};
