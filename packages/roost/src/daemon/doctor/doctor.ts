/**
 * `roost doctor`: checks a home (its roost.json, database, backups, file modes, daemon, process
 * host and the jobs the store does not know) without starting anything and says, for each finding, what to do.
 * It reads the database read-only, asks the process host (if one serves) what it runs, and
 * changes nothing unless asked (`drop`: ends the host's jobs and removes the folders the store
 * does not know, only while no daemon runs).
 */
import { existsSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { checkConfig } from "../../home/config-check.js";
import type { StatePaths } from "../../home/paths.js";
import { isProcessAlive, isRoostDaemon } from "../../home/process.js";
import type { HostJobInfo } from "../host/api.js";
import { HostClient } from "../host/client.js";
import { hostSocketPath } from "../host/files.js";
import { removeJobFolder } from "../jobs/job-folders.js";
import { describeStrays, sortStrays } from "../jobs/strays.js";
import { holdStoppedHome, readPid, socketAnswers } from "../start/daemon-lock.js";
import { BACKUP_INTERVAL_MS, listBackups } from "../store/backups.js";
import { describeFinding, inspectDatabase } from "../store/database-file.js";

export type FindingStatus = "ok" | "warn" | "problem";

export interface Finding {
  check: "config" | "database" | "backup" | "modes" | "daemon" | "host" | "strays";
  status: FindingStatus;
  found: string;
  /** What to do about it; none for an ok. */
  remedy?: string;
}

/** Every file and folder under `dir` that its group or others may read, write or enter. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  // A home no daemon has started yet has no state folder: nothing in it is open.
  if (!existsSync(dir)) return found;
  const walk = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) found.push(`${path} (${(stat.mode & 0o777).toString(8)})`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return found;
}

/** The jobs the database knows, and those removed whose removal may be unfinished. */
function storedJobIds(file: string): { jobs: Set<string>; removed: Set<string> } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const ids = (sql: string) => new Set((db.prepare(sql).all() as { id: string }[]).map((r) => r.id));
    const hasRemoved = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'removed_jobs'").get();
    return {
      jobs: ids("SELECT id FROM jobs"),
      removed: hasRemoved ? ids("SELECT id FROM removed_jobs") : new Set(),
    };
  } finally {
    db.close();
  }
}

function age(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
}

/** What the process host runs, or why it could not be asked. */
async function hostJobs(stateDir: string): Promise<{ jobs: HostJobInfo[]; pid: number } | string> {
  try {
    const host = await HostClient.connect(hostSocketPath(stateDir));
    try {
      return { jobs: await host.list(), pid: host.hostPid };
    } finally {
      await host.close();
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? "none" : (err as Error).message;
  }
}

export interface DoctorOptions {
  /** End the host's jobs and remove the folders the store does not know (no daemon may run). */
  drop?: boolean;
}

export async function checkHome(paths: StatePaths, options: DoctorOptions = {}): Promise<Finding[]> {
  const findings: Finding[] = [];
  const config = checkConfig(paths.home);
  findings.push(
    config.length
      ? {
          check: "config",
          status: "problem",
          found: config.map((f) => f.message).join("; "),
          remedy: `fix ${config.length === 1 ? "that key" : "those keys"} in ${paths.config}`,
        }
      : { check: "config", status: "ok", found: `${paths.config} is as roost reads it (or absent)` },
  );
  const database = inspectDatabase(paths.db, true);
  const backups = listBackups(paths.stateDir);
  const restore = backups.length
    ? "`roost restore` (it keeps this file aside; no daemon may run)"
    : "no backup to restore: move the file aside to start a new home";
  if (database.state === "ok")
    findings.push({ check: "database", status: "ok", found: `${describeFinding(database)}, integrity ok` });
  else if (database.state === "missing")
    findings.push({ check: "database", status: "ok", found: `${describeFinding(database)}` });
  else
    findings.push({
      check: "database",
      status: "problem",
      found: describeFinding(database),
      remedy: restore,
    });

  const newest = backups[0];
  if (!newest)
    findings.push({
      check: "backup",
      status: "warn",
      found: "no backup yet",
      remedy: "start the daemon (it takes one at its start)",
    });
  else {
    const late = Date.now() - newest.takenAt.getTime() > 2 * BACKUP_INTERVAL_MS;
    findings.push({
      check: "backup",
      status: "ok",
      found: `${backups.length} kept, the newest ${newest.name} (${age(Date.now() - newest.takenAt.getTime())} old${late ? ", the daemon takes the next once something changes" : ""})`,
    });
  }

  const open = openToOthers(paths.stateDir);
  findings.push(
    open.length
      ? {
          check: "modes",
          status: "problem",
          found: `open to others: ${open.slice(0, 10).join(", ")}${open.length > 10 ? ` and ${open.length - 10} more` : ""}`,
          remedy: `chmod -R go= ${paths.stateDir}`,
        }
      : { check: "modes", status: "ok", found: "everything is owner-only" },
  );

  const pid = readPid(paths.pidFile);
  const answers = await socketAnswers(paths.socket);
  if (pid !== undefined && isRoostDaemon(pid) && answers)
    findings.push({ check: "daemon", status: "ok", found: `runs (pid ${pid})` });
  else if (pid !== undefined && !isRoostDaemon(pid))
    findings.push({
      check: "daemon",
      status: "warn",
      found: `the pid file names ${pid}, which is ${isProcessAlive(pid) ? "not a roost daemon" : "not running"}`,
      remedy: "nothing: the next command replaces it",
    });
  else if (!answers && pid === undefined)
    findings.push({ check: "daemon", status: "ok", found: "not running (the next command starts it)" });
  else
    findings.push({
      check: "daemon",
      status: "warn",
      found: answers ? "a daemon answers but the pid file is missing" : "the socket is stale",
      remedy: "nothing: the next command replaces it",
    });

  const host = await hostJobs(paths.stateDir);
  if (typeof host === "string") {
    findings.push(
      host === "none"
        ? { check: "host", status: "ok", found: "not running (no job runs)" }
        : {
            check: "host",
            status: "problem",
            found: `the process host does not answer: ${host}`,
            remedy: "its jobs go on; `roost shutdown --all` ends it",
          },
    );
  } else {
    findings.push({
      check: "host",
      status: "ok",
      found: `reachable (pid ${host.pid}), ${host.jobs.filter((j) => j.running).length} running`,
    });
  }
  if (database.state === "ok") {
    const stored = storedJobIds(paths.db);
    let unknown = sortStrays(
      typeof host === "string" ? [] : host.jobs,
      paths.jobsDir,
      stored.jobs,
      stored.removed,
    ).unknown;
    if (options.drop && (unknown.hostJobs.length || unknown.folders.length)) {
      await dropStrays(paths, unknown.hostJobs, unknown.folders);
      unknown = { hostJobs: [], folders: [] };
      findings.push({ check: "strays", status: "ok", found: "dropped what the store did not know" });
    }
    const line = describeStrays(unknown);
    if (line)
      findings.push({
        check: "strays",
        status: "warn",
        found: line,
        remedy:
          "`roost adopt ID` makes a job of one (its row then shows it), or keep them as they are (a job goes on; a folder holds its output), or `roost shutdown` then `roost doctor --drop` to end and remove them",
      });
    else if (!options.drop)
      findings.push({ check: "strays", status: "ok", found: "every job and folder is the store's" });
  }
  return findings;
}

/** Ends the host jobs and removes the folders named, holding the daemon's lock (none may run). */
async function dropStrays(paths: StatePaths, jobs: HostJobInfo[], folders: string[]): Promise<void> {
  const release = await holdStoppedHome(paths, "drop");
  try {
    if (jobs.length) {
      const host = await HostClient.connect(hostSocketPath(paths.stateDir));
      try {
        for (const job of jobs) await host.remove(job.id);
      } finally {
        await host.close();
      }
    }
    for (const name of folders) removeJobFolder(join(paths.jobsDir, name));
  } finally {
    release();
  }
}
