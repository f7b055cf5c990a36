import { CONCIERGE_LIMITS, type OrderBy, RoostError, type StandingOrder } from "../../protocol/index.js";
import { localIso } from "../schedules/local-time.js";
import { parseWhen, type When } from "../schedules/when.js";
import { RecordTable } from "../store/record-table.js";
import type { Store } from "../store/store.js";

/** What the store keeps of a standing order. Times are epoch milliseconds. */
interface OrderRecord {
  id: number;
  text: string;
  when: string | null;
  by: OrderBy;
  at: number;
  lastAt: number | null;
  count: number;
  /** The due time that comes next (an order on a clock), moved on once its digest reached the concierge. */
  nextDue: number | null;
}

/** A standing order's id: a positive integer, or a string of digits. */
export function readOrderId(value: unknown): number {
  const n = typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 1)
    throw new RoostError("bad_request", "id must be a positive integer (or a string of digits)");
  return n;
}

/**
 * The concierge's standing orders (M46), kept in the store: at most 50, each with an optional clock
 * in the schedules' vocabulary, read in the daemon's local time zone.
 */
export class OrderBook {
  private readonly records: Map<number, OrderRecord>;
  private readonly whens = new Map<number, When>();
  private readonly table: RecordTable<OrderRecord>;

  constructor(store: Store) {
    // An order an op could not keep is set back: its clock with it.
    this.table = new RecordTable(store, "concierge_orders", (id, record) => this.clock(id, record));
    this.records = this.table.records;
    for (const record of this.records.values()) this.clock(record.id, record);
  }

  private clock(id: number, record: OrderRecord | undefined): void {
    if (record?.when) this.whens.set(id, parseWhen(record.when, record.at));
    else this.whens.delete(id);
  }

  get size(): number {
    return this.records.size;
  }

  shown(record: OrderRecord): StandingOrder {
    return {
      id: record.id,
      text: record.text,
      when: record.when,
      by: record.by,
      at: localIso(record.at),
      lastAt: record.lastAt === null ? null : localIso(record.lastAt),
      nextAt: record.nextDue === null ? null : localIso(record.nextDue),
      count: record.count,
    };
  }

  list(): StandingOrder[] {
    return [...this.records.values()].map((r) => this.shown(r));
  }

  get(id: number): OrderRecord {
    const record = this.records.get(id);
    if (!record) throw new RoostError("not_found", `no standing order ${id}`);
    return record;
  }

  add(text: unknown, when: unknown, by: OrderBy, now: number): StandingOrder {
    if (typeof text !== "string" || text.trim() === "")
      throw new RoostError("bad_request", "text must be a non-empty string");
    if (text.length > CONCIERGE_LIMITS.orderText)
      throw new RoostError("bad_request", `text is longer than ${CONCIERGE_LIMITS.orderText} characters`);
    const clock = when === undefined || when === null ? null : parseWhen(when, now);
    if (this.records.size >= CONCIERGE_LIMITS.orders)
      throw new RoostError("full", `there are ${CONCIERGE_LIMITS.orders} standing orders already`);
    const record: OrderRecord = {
      id: this.table.newId(),
      text: text.trim(),
      when: clock ? (when as string).trim() : null,
      by,
      at: now,
      lastAt: null,
      count: 0,
      nextDue: clock ? clock.next(now) : null,
    };
    this.records.set(record.id, record);
    if (clock) this.whens.set(record.id, clock);
    this.table.put(record);
    return this.shown(record);
  }

  /** Drops one; the concierge may drop only its own (`unsupported`). */
  remove(id: number, by: OrderBy): StandingOrder {
    const record = this.get(id);
    if (by === "concierge" && record.by !== "concierge")
      throw new RoostError("unsupported", `order ${id} is the user's: only the user drops it`);
    this.records.delete(id);
    this.whens.delete(id);
    this.table.remove(id);
    return this.shown(record);
  }

  applied(id: number, now: number): StandingOrder {
    const record = this.get(id);
    record.lastAt = now;
    record.count++;
    this.table.put(record);
    return this.shown(record);
  }

  /** The orders on a clock whose due time has come, with that time. */
  due(now: number): { id: number; due: number }[] {
    return [...this.records.values()].flatMap((r) =>
      r.nextDue !== null && r.nextDue <= now ? [{ id: r.id, due: r.nextDue }] : [],
    );
  }

  /** The soonest due time to come, or null. */
  nextDue(): number | null {
    const times = [...this.records.values()].flatMap((r) => (r.nextDue === null ? [] : [r.nextDue]));
    return times.length ? Math.min(...times) : null;
  }

  /**
   * Its digest reached the concierge: the order's clock moves to its first due time after both that
   * due time and now (due times missed meanwhile are not fired one by one).
   */
  reached(id: number, due: number, now: number): void {
    const record = this.records.get(id);
    const when = this.whens.get(id);
    if (!record || !when || record.nextDue === null || record.nextDue > due) return;
    record.nextDue = when.next(Math.max(due, now));
    this.table.put(record);
  }

  has(id: number): boolean {
    return this.records.has(id);
  }

  shownById(id: number): StandingOrder | undefined {
    const record = this.records.get(id);
    return record ? this.shown(record) : undefined;
  }
}
