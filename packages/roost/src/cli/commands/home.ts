/** `roost doctor` and `roost restore`: the home's checks and its way back, run without a daemon. */
import { statePaths } from "../../home/paths.js";
import type { Command } from "../command.js";

export const doctor: Command = {
  name: "doctor",
  usage: "doctor [--drop] [--json]",
  summary:
    "Checks the home (roost.json, database, backup, file modes, daemon, process host, jobs the store does not know) and says what to do. --drop ends and removes those unknown jobs (no daemon may run).",
  positionals: [0, 0],
  options: { drop: { type: "boolean" } },
  run: async ({ home, values, print }) => {
    // Loaded here only: the other commands need none of the daemon's code.
    const { checkHome } = await import("../../daemon/doctor/doctor.js");
    const findings = await checkHome(statePaths(home), { drop: values.drop === true });
    const lines = findings.map(
      (f) =>
        `${f.status.padEnd(8)}${f.check}: ${f.found}${f.remedy ? `\n        what to do: ${f.remedy}` : ""}`,
    );
    const healthy = findings.every((f) => f.status !== "problem");
    print(lines.join("\n"), { ok: healthy, findings });
    return healthy ? 0 : 1;
  },
};

export const restore: Command = {
  name: "restore",
  usage: "restore [--from FILE] [--list] [--json]",
  summary:
    "Brings back the newest backup (or FILE) as the database, keeping the one it replaces aside; no daemon may run. --list shows the backups.",
  positionals: [0, 0],
  options: { from: { type: "string" }, list: { type: "boolean" } },
  run: async ({ home, values, print }) => {
    const paths = statePaths(home);
    if (values.list) {
      const { listBackups } = await import("../../daemon/store/backups.js");
      const backups = listBackups(paths.stateDir);
      print(
        backups.length
          ? backups.map((b) => `${b.takenAt.toISOString()}  ${b.bytes} bytes  ${b.file}`).join("\n")
          : "no backups",
        { backups: backups.map((b) => ({ file: b.file, takenAt: b.takenAt.toISOString(), bytes: b.bytes })) },
      );
      return 0;
    }
    const { restoreDatabase } = await import("../../daemon/store/restore.js");
    const restored = await restoreDatabase(paths, typeof values.from === "string" ? values.from : undefined);
    const aside = restored.keptAside.length
      ? `; the database it replaced is kept as ${restored.keptAside[0]}`
      : "";
    print(`restored ${paths.db} from ${restored.from}${aside}`, restored);
    return 0;
  },
};
