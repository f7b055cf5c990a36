/**
 * Copies of the last good database, in the state folder's `backups/`: taken with `VACUUM INTO`
 * (the writer goes on writing meanwhile; the copy is compacted), written under a temporary name (owner-only from
 * its creation) and renamed, so a backup on disk is always whole. The newest few are kept.
 */
import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";

/** How many backups are kept, newest first. */
export const BACKUPS_KEPT = 3;
/** How often the daemon takes one while it runs, when something was written since the last. */
export const BACKUP_INTERVAL_MS = 15 * 60_000;

export interface Backup {
  file: string;
  name: string;
  takenAt: Date;
  bytes: number;
}

export function backupsDir(stateDir: string): string {
  return join(stateDir, "backups");
}

/** The backups there are, newest first. */
export function listBackups(stateDir: string): Backup[] {
  let names: string[];
  try {
    names = readdirSync(backupsDir(stateDir));
  } catch {
    return [];
  }
  return names
    .filter((name) => /^roost-.*\.db$/.test(name))
    .map((name) => {
      const file = join(backupsDir(stateDir), name);
      const stat = statSync(file);
      return { file, name, takenAt: stat.mtime, bytes: stat.size };
    })
    .sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime() || b.name.localeCompare(a.name));
}

/** A file name for a time: sortable, and free of characters a shell or another system minds. */
export function stampOf(at: Date): string {
  return at.toISOString().replace(/[:.]/g, "-");
}

/** Takes a backup of `db` and drops all but the newest `BACKUPS_KEPT`; resolves with it. */
export function takeBackup(db: Database.Database, stateDir: string, at = new Date()): Backup {
  const dir = backupsDir(stateDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Whatever the umask is at this moment (the socket's listen narrows it for a while).
  chmodSync(dir, 0o700);
  const name = `roost-${stampOf(at)}.db`;
  const making = join(dir, `.${name}.tmp`);
  rmSync(making, { force: true });
  closeSync(openSync(making, "wx", 0o600));
  try {
    // One statement in one read transaction: a consistent copy whatever the writer commits
    // meanwhile (the online backup API starts over at each of the writer's commits).
    db.prepare("VACUUM INTO ?").run(making);
    renameSync(making, join(dir, name));
  } catch (err) {
    rmSync(making, { force: true });
    throw err;
  }
  for (const old of listBackups(stateDir).slice(BACKUPS_KEPT)) rmSync(old.file, { force: true });
  return listBackups(stateDir).find((b) => b.name === name)!;
}

/** What the daemon asks of the store to keep its backups: its connection, and whether it wrote since. */
export interface BackedUp {
  readonly database: Database.Database;
  /** Transactions committed so far. */
  readonly commits: number;
}

/**
 * Takes a backup now (the daemon's start: the database just passed its check), then every
 * `BACKUP_INTERVAL_MS` and at the daemon's stop, each when something was committed since.
 */
export function keepBackups(
  store: BackedUp,
  stateDir: string,
  log: (line: string) => void,
): { stop(): void } {
  let commitsAtLast = -1;
  const take = () => {
    if (store.commits === commitsAtLast) return;
    commitsAtLast = store.commits;
    try {
      takeBackup(store.database, stateDir);
    } catch (err) {
      log(`roost: the database's backup failed: ${(err as Error).message}`);
    }
  };
  take();
  const timer = setInterval(take, BACKUP_INTERVAL_MS);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      take();
    },
  };
}
