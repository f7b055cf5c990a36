import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The file in the job's folder where the clients keep what they finished. */
export const AGENT_STATE_FILE = "agent.json";

/** How many finished agent items (acked one by one) are remembered. */
const ITEMS_KEPT = 200;

/** What `agent.json` holds: the last finished user reply, and the agent items finished lately. */
export interface FinishedReplies {
  finished: number;
  items: number[];
}

/**
 * The record of finished replies in `$ROOST_JOB_DIR/agent.json`, so that an agent started again after
 * a crash skips what it had finished. Each change is written to a temporary file and renamed over
 * the old one, so a crash leaves the old record or the new one, never half of one.
 */
export class FinishedLedger {
  private state: FinishedReplies;

  constructor(private readonly jobDir: string) {
    this.state = readFinished(join(jobDir, AGENT_STATE_FILE));
  }

  get finished(): number {
    return this.state.finished;
  }

  /** Whether a reply was finished already: a user reply up to `finished`, an item by its seq. */
  isFinished(seq: number, exact: boolean): boolean {
    return exact ? this.state.items.includes(seq) : seq <= this.state.finished;
  }

  /** Records a reply as finished, on disk, before its ack is sent. */
  record(seq: number, exact: boolean): void {
    const next: FinishedReplies = exact
      ? { finished: this.state.finished, items: [...this.state.items, seq].slice(-ITEMS_KEPT) }
      : { finished: Math.max(this.state.finished, seq), items: this.state.items };
    writeAtomically(join(this.jobDir, AGENT_STATE_FILE), `${JSON.stringify(next)}\n`);
    this.state = next;
  }
}

/** Reads a ledger file; a missing or unreadable one means nothing was finished. */
export function readFinished(path: string): FinishedReplies {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return { finished: 0, items: [] };
  }
  const record = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const finished =
    typeof record.finished === "number" && Number.isSafeInteger(record.finished) && record.finished > 0
      ? record.finished
      : 0;
  const items = Array.isArray(record.items)
    ? record.items.filter((s): s is number => typeof s === "number" && Number.isSafeInteger(s))
    : [];
  return { finished, items };
}

function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, path);
}
