import { readFileSync, renameSync, writeFileSync } from "node:fs";
import type { CommandPayload, Envelope } from "../protocol/index.js";

/** A command on its way: kept before it is sent, so that a player started again sends the same one. */
export interface PendingCommand {
  command_id: string;
  envelope: Envelope;
  payload: CommandPayload;
  written: string;
}

/** What a player keeps across its own restarts: the run it plays, its lease, a command on its way. */
export interface PlayRecord {
  run_id?: string;
  lease?: string;
  pending?: PendingCommand;
}

/**
 * The player's record, in a file when it has one (a roost job's folder), else in memory. Each change
 * is written to a temporary file and renamed over the old one: a crash leaves one or the other whole.
 */
export class PlayRecordFile {
  private record: PlayRecord;

  constructor(private readonly path?: string) {
    this.record = path ? readRecord(path) : {};
  }

  get current(): PlayRecord {
    return this.record;
  }

  update(change: Partial<PlayRecord>): void {
    const next = { ...this.record, ...change };
    if (this.path) {
      const temporary = `${this.path}.${process.pid}.tmp`;
      writeFileSync(temporary, `${JSON.stringify(next)}\n`, { mode: 0o600 });
      renameSync(temporary, this.path);
    }
    this.record = next;
  }
}

function readRecord(path: string): PlayRecord {
  try {
    const raw: unknown = JSON.parse(readFileSync(path, "utf8"));
    return raw && typeof raw === "object" ? (raw as PlayRecord) : {};
  } catch {
    return {};
  }
}
