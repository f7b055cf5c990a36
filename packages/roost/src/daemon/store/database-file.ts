/**
 * What a home's `roost.db` is before the store opens it: missing (a new home), or roost's own at a
 * schema this daemon knows, or something else, which the daemon refuses to take for a new home. A
 * new database is made whole under another name and renamed into place, owner-only from its
 * creation, so that an empty or schema-less `roost.db` is never one roost left half-made.
 */
import { closeSync, openSync, readSync, renameSync, rmSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import { listBackups } from "./backups.js";

/** `PRAGMA application_id` of a roost database ("roos"). */
export const ROOST_APPLICATION_ID = 0x726f6f73;
/** `PRAGMA user_version`: 1 is the first versioned schema (the same tables as the unversioned one). */
export const STORE_SCHEMA_VERSION = 1;
/** The tables every roost database has had from the start: a database without an id that has them is roost's. */
const CORE_TABLES = ["jobs", "job_spawn", "replies"];
const SQLITE_HEADER = "SQLite format 3\0";

export type DatabaseFinding =
  | { state: "missing" }
  | { state: "ok"; version: number }
  | { state: "empty" }
  | { state: "not_sqlite" }
  | { state: "truncated"; bytes: number; expected: number }
  | { state: "damaged"; detail: string }
  | { state: "foreign"; tables: string[] }
  | { state: "newer"; version: number };

/** The first 100 bytes of the file (SQLite's header), or fewer when it is shorter. */
function readHeader(file: string): Buffer {
  const fd = openSync(file, "r");
  try {
    const header = Buffer.alloc(100);
    return header.subarray(0, readSync(fd, header, 0, 100, 0));
  } finally {
    closeSync(fd);
  }
}

/** A header's page size times its page count, when the header says (SQLite's rule for trusting it). */
function expectedBytes(header: Buffer): number | undefined {
  if (header.length < 100) return undefined;
  const raw = header.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  const pages = header.readUInt32BE(28);
  const valid = pages > 0 && header.readUInt32BE(24) === header.readUInt32BE(92);
  return valid ? pageSize * pages : undefined;
}

/**
 * Looks at the database file: its size, its header, whether SQLite reads it (`quick_check`, or
 * `integrity_check` when `thorough`), and whose schema it holds. Never creates or changes a file
 * (opened read-only).
 */
export function inspectDatabase(file: string, thorough = false): DatabaseFinding {
  let bytes: number;
  try {
    bytes = statSync(file).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { state: "missing" };
    throw err;
  }
  if (bytes === 0) return { state: "empty" };
  const header = readHeader(file);
  if (header.subarray(0, 16).toString("latin1") !== SQLITE_HEADER) return { state: "not_sqlite" };
  const expected = expectedBytes(header);
  if (expected !== undefined && bytes < expected) return { state: "truncated", bytes, expected };
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const check = db.pragma(thorough ? "integrity_check(20)" : "quick_check(20)", { simple: false }) as {
      [column: string]: string;
    }[];
    const problems = check.map((row) => Object.values(row)[0]).filter((line) => line !== "ok");
    if (problems.length > 0) return { state: "damaged", detail: problems.slice(0, 3).join("; ") };
    const id = db.pragma("application_id", { simple: true }) as number;
    const version = db.pragma("user_version", { simple: true }) as number;
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
        name: string;
      }[]
    ).map((t) => t.name);
    if (id === ROOST_APPLICATION_ID) {
      return version > STORE_SCHEMA_VERSION ? { state: "newer", version } : { state: "ok", version };
    }
    if (id === 0 && version === 0 && CORE_TABLES.every((t) => tables.includes(t)))
      return { state: "ok", version: 0 };
    return { state: "foreign", tables };
  } catch (err) {
    return { state: "damaged", detail: (err as Error).message };
  } finally {
    db?.close();
  }
}

/** What was found, in a few words, for a refusal or a doctor's finding. */
export function describeFinding(finding: DatabaseFinding): string {
  switch (finding.state) {
    case "missing":
      return "there is no database (a new home)";
    case "ok":
      return `a roost database (schema ${finding.version})`;
    case "empty":
      return "the database is empty (0 bytes)";
    case "not_sqlite":
      return "the database's header is not SQLite's (overwritten, or not a database)";
    case "truncated":
      return `the database is cut short (${finding.bytes} of ${finding.expected} bytes)`;
    case "damaged":
      return `the database is damaged (${finding.detail})`;
    case "foreign":
      return `the database is not roost's (${finding.tables.length ? `tables: ${finding.tables.slice(0, 5).join(", ")}` : "no tables"})`;
    case "newer":
      return `the database has schema ${finding.version}, newer than this roost knows (${STORE_SCHEMA_VERSION})`;
  }
}

/** Whether the store can open what was found: a new home or a database of a known schema. */
export function isUsable(finding: DatabaseFinding): boolean {
  return finding.state === "missing" || finding.state === "ok";
}

/**
 * Makes a new, empty roost database at `file`: made under another name (owner-only from its
 * creation) with its id and version set, then renamed into place.
 */
export function createDatabase(file: string): void {
  const making = `${file}.new-${process.pid}`;
  rmSync(making, { force: true });
  closeSync(openSync(making, "wx", 0o600));
  const db = new Database(making, { fileMustExist: true });
  try {
    db.pragma(`application_id = ${ROOST_APPLICATION_ID}`);
    db.pragma(`user_version = ${STORE_SCHEMA_VERSION}`);
  } finally {
    db.close();
  }
  renameSync(making, file);
}

/** Marks an unversioned roost database (from before the schema had a version) as schema 1. */
export function markVersion(db: Database.Database): void {
  if ((db.pragma("application_id", { simple: true }) as number) === ROOST_APPLICATION_ID) return;
  db.pragma(`application_id = ${ROOST_APPLICATION_ID}`);
  db.pragma(`user_version = ${STORE_SCHEMA_VERSION}`);
}

/** The home's database is not one the store may open: the daemon stops with this, touching nothing. */
export class DatabaseRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatabaseRefusedError";
  }
}

/** What a person can do about a database the daemon refuses, with the backup there is to bring back. */
function whatToDo(finding: DatabaseFinding, stateDir: string): string {
  if (finding.state === "newer") return "run the roost that made it, or `roost restore` an older backup";
  const backup = listBackups(stateDir)[0];
  const restore = backup
    ? `\`roost restore\` brings back the backup taken ${backup.takenAt.toISOString()} and keeps this file aside`
    : "there is no backup: move the file aside to start a new home";
  return `${restore}; \`roost doctor\` checks the whole home`;
}

/**
 * Makes sure `file` is a database the store may open: creates it for a new home, or throws a
 * one-line `DatabaseRefusedError` saying what was found and what to do.
 */
export function prepareDatabase(file: string, stateDir: string): void {
  const finding = inspectDatabase(file);
  if (finding.state === "missing") createDatabase(file);
  else if (!isUsable(finding))
    throw new DatabaseRefusedError(
      `${describeFinding(finding)}: ${file} is not taken as a new home and no job is touched; ${whatToDo(finding, stateDir)}`,
    );
}
