import type { DaemonClient } from "../../client/daemon-client.js";
import { RoostError, type Schedule, type ScheduleLaunch } from "../../protocol/index.js";
import type { Command } from "../command.js";

const USAGE = "schedule add WHEN PROFILE [TASK] | ls | rm|pause|resume|run ID|NAME [--json]";

/** A schedule on one line: id, name, when, and its next run in local time. */
function scheduleLine(schedule: Schedule): string {
  const next = schedule.paused ? "paused" : `next ${schedule.nextAt ?? "never"} (${schedule.timeZone})`;
  const overlap = schedule.overlap ? "  overlap" : "";
  return `${schedule.id}  ${schedule.name}  ${schedule.when}  ${next}  runs ${schedule.runs}, skipped ${schedule.skips}${overlap}`;
}

/** A schedule named by its id (digits), else by its name: `not_found` lists the names there are. */
async function scheduleId(c: DaemonClient, given: string): Promise<string> {
  if (/^\d+$/.test(given)) return given;
  const { schedules } = await c.call("schedules", {});
  const found = schedules.find((s) => s.name === given);
  if (found) return String(found.id);
  const names = schedules.map((s) => s.name).join(", ");
  throw new RoostError(
    "not_found",
    `no schedule named ${JSON.stringify(given)}${names ? ` (schedules: ${names})` : " (there are none)"}`,
  );
}

function usage(message: string): RoostError {
  return new RoostError("bad_request", `${message}\nusage: roost ${USAGE}`);
}

export const schedule: Command = {
  name: "schedule",
  usage: USAGE,
  summary:
    'Schedules dispatches (WHEN: every 30m | daily 18:00 | weekdays 09:00 | cron "m h dom mon dow"); add takes --name, --cwd, --job-name, --overlap.',
  positionals: [1, 4],
  options: {
    name: { type: "string" },
    cwd: { type: "string" },
    "job-name": { type: "string" },
    overlap: { type: "boolean" },
  },
  run: async ({ positionals, values, client, print }) => {
    const [action, ...rest] = positionals;
    const c = await client();
    if (action === "add") {
      if (rest.length < 2 || rest.length > 3) throw usage("add takes WHEN, PROFILE and maybe a TASK");
      const launch: ScheduleLaunch = { profile: rest[1]!, cwd: (values.cwd as string) ?? process.cwd() };
      if (rest[2] !== undefined) launch.task = rest[2];
      if (typeof values["job-name"] === "string") launch.name = values["job-name"];
      const result = await c.call("schedule-add", {
        when: rest[0]!,
        launch,
        ...(typeof values.name === "string" ? { name: values.name } : {}),
        ...(values.overlap === true ? { overlap: true } : {}),
      });
      print(`added ${scheduleLine(result.schedule)}`, result);
      return 0;
    }
    if (action === "ls" || action === "list") {
      if (rest.length) throw usage("ls takes no arguments");
      const result = await c.call("schedules", {});
      const lines = result.schedules.map(scheduleLine);
      print(lines.length ? lines.join("\n") : `no schedules (time zone ${result.timeZone})`, result);
      return 0;
    }
    if (action === "rm" || action === "pause" || action === "resume" || action === "run") {
      if (rest.length !== 1) throw usage(`${action} takes a schedule's id or name`);
      const id = await scheduleId(c, rest[0]!);
      if (action === "rm") {
        const result = await c.call("schedule-rm", { id });
        print(`removed schedule ${result.id}`, result);
      } else if (action === "run") {
        const result = await c.call("schedule-run", { id });
        print(`started ${result.job.name} (${result.job.id}) from schedule ${result.schedule.id}`, result);
      } else {
        const result = await c.call(action === "pause" ? "schedule-pause" : "schedule-resume", { id });
        print(`${action === "pause" ? "paused" : "resumed"} ${scheduleLine(result.schedule)}`, result);
      }
      return 0;
    }
    throw usage(`unknown action ${JSON.stringify(action)}`);
  },
};
