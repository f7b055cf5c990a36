import { nameKey } from "../../protocol/index.js";
import type { Job } from "./job.js";

/**
 * Names as compared, by name. Folding a name runs it through the terminal filter and NFKC twice;
 * jobs' names repeat from one dispatch to the next, so each is folded once.
 */
const keys = new Map<string, string>();
/** Past this many names the memo starts again, so renames and removals cannot grow it without end. */
const KEYS_KEPT = 20_000;

function keyOf(name: string): string {
  let key = keys.get(name);
  if (key === undefined) {
    if (keys.size >= KEYS_KEPT) keys.clear();
    key = nameKey(name);
    keys.set(name, key);
  }
  return key;
}

/**
 * The jobs by id, with the names they hold (folded, as names are compared), the highest row order
 * and the concierge's job: a dispatch finds a free name and the next order, and each event finds
 * the concierge, without looking through every job, so their cost does not grow with the fleet.
 * A name changes only through `DaemonState.changed`, which tells the table (`noteChange`), the
 * store's setting back of a failed rename included.
 */
export class JobTable extends Map<string, Job> {
  /** Each job's name as the table holds it. */
  private readonly heldNames = new Map<Job, string>();
  /** Folded name → how many jobs hold it. */
  private readonly holders = new Map<string, number>();
  /** Per base name, the suffix a free `base-N` is looked for from: the ones below were taken. */
  private readonly suffixFrom = new Map<string, number>();
  private highestOrder = -1;
  /** The job with `role: "concierge"` (given when its record is made, never changed after). */
  private concierge: Job | undefined;

  override set(id: string, job: Job): this {
    const had = this.get(id);
    if (had !== undefined) this.letGo(had);
    super.set(id, job);
    this.hold(job);
    return this;
  }

  override delete(id: string): boolean {
    const had = this.get(id);
    if (had === undefined) return false;
    this.letGo(had);
    return super.delete(id);
  }

  override clear(): void {
    super.clear();
    this.heldNames.clear();
    this.holders.clear();
    this.suffixFrom.clear();
    this.highestOrder = -1;
    this.concierge = undefined;
  }

  /** The concierge's job, if it has one. */
  conciergeJob(): Job | undefined {
    return this.concierge;
  }

  /** Takes in a job's new name or order (called at each change of a job; costs a comparison). */
  noteChange(job: Job): void {
    if (job.order > this.highestOrder) this.highestOrder = job.order;
    const held = this.heldNames.get(job);
    if (held === undefined || held === job.name) return;
    this.letGo(job);
    this.hold(job);
  }

  /** Whether a job holds the name (folded, as names are compared). */
  holdsName(name: string): boolean {
    return this.holders.has(keyOf(name));
  }

  /** Where to look for a free `base-N` from; `found` remembers where one was found. */
  suffixSearchFrom(base: string): number {
    return this.suffixFrom.get(keyOf(base)) ?? 2;
  }

  suffixFound(base: string, n: number): void {
    this.suffixFrom.set(keyOf(base), n);
  }

  /** The order a new row takes: after every row's (a removed row's order is not given again). */
  nextOrder(): number {
    return this.highestOrder + 1;
  }

  private hold(job: Job): void {
    const key = keyOf(job.name);
    this.heldNames.set(job, job.name);
    this.holders.set(key, (this.holders.get(key) ?? 0) + 1);
    if (job.order > this.highestOrder) this.highestOrder = job.order;
    if (job.role === "concierge") this.concierge = job;
  }

  private letGo(job: Job): void {
    const name = this.heldNames.get(job);
    if (name === undefined) return;
    if (this.concierge === job) this.concierge = undefined;
    this.heldNames.delete(job);
    const key = keyOf(name);
    const count = (this.holders.get(key) ?? 1) - 1;
    if (count > 0) this.holders.set(key, count);
    else this.holders.delete(key);
    // A name let go may be a `base-N` below where a search would start: every search starts over.
    this.suffixFrom.clear();
  }
}
