/**
 * `roost restore`: brings back a backup as the home's database, while no daemon runs (it holds the
 * daemon's lock meanwhile, so none starts either). The database it replaces is kept aside, with its
 * side files, under a name of its own; nothing is deleted.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { StatePaths } from "../../home/paths.js";
import { RoostError } from "../../protocol/index.js";
import { holdStoppedHome } from "../start/daemon-lock.js";
import { listBackups, stampOf } from "./backups.js";
import { describeFinding, inspectDatabase } from "./database-file.js";

export interface Restored {
  from: string;
  /** Where the database it replaced (and its side files) now are; empty when there was none. */
  keptAside: string[];
}

/** SQLite's side files of a database: what goes aside with it. */
const SIDE_FILES = ["", "-wal", "-shm"];

export async function restoreDatabase(paths: StatePaths, from?: string): Promise<Restored> {
  const release = await holdStoppedHome(paths, "restore");
  try {
    const source = from ?? listBackups(paths.stateDir)[0]?.file;
    if (source === undefined)
      throw new RoostError(
        "not_found",
        `no backup in ${join(paths.stateDir, "backups")} (--from FILE names one)`,
      );
    const finding = inspectDatabase(source, true);
    if (finding.state !== "ok")
      throw new RoostError("bad_request", `${source} is not brought back: ${describeFinding(finding)}`);
    const stamp = stampOf(new Date());
    const keptAside: string[] = [];
    for (const side of SIDE_FILES) {
      const file = `${paths.db}${side}`;
      if (!existsSync(file)) continue;
      const aside = join(paths.stateDir, `roost-replaced-${stamp}.db${side}`);
      renameSync(file, aside);
      keptAside.push(aside);
    }
    const making = `${paths.db}.restoring-${process.pid}`;
    rmSync(making, { force: true });
    // Owner-only from its creation (a copy would take the source's mode).
    writeFileSync(making, readFileSync(source), { mode: 0o600, flag: "wx" });
    renameSync(making, paths.db);
    return { from: source, keptAside };
  } finally {
    release();
  }
}
