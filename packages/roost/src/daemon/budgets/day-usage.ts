import { localDay } from "../../protocol/usage-text.js";
import type { Store } from "../store/store.js";
import { NO_SPEND, plus, type Spend } from "./budget-rules.js";

/**
 * What the sessions used today (the local day), by profile: what each session's count grew by
 * since midnight, as roost read it. Kept in the store, so a restart goes on with the day's counts;
 * a new day starts from nothing, and only the day in course is kept.
 */
/** The first moment (ms) of the local day after the one `ms` is in. */
function nextMidnight(ms: number): number {
  const next = new Date(ms);
  next.setHours(24, 0, 0, 0);
  return next.getTime();
}

export class DayUsage {
  private day: string;
  /** When the day in course ends: looked at on every count, so kept as a time rather than made again. */
  private ends: number;
  private readonly byProfile = new Map<string, Spend>();
  private fleet: Spend = NO_SPEND;

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {
    const db = store.database;
    db.exec(
      "CREATE TABLE IF NOT EXISTS usage_days (day TEXT NOT NULL, profile TEXT NOT NULL, " +
        "tokens INTEGER NOT NULL, cost REAL NOT NULL, PRIMARY KEY (day, profile))",
    );
    store.define({
      "usage_days.put":
        "INSERT INTO usage_days (day, profile, tokens, cost) VALUES (?, ?, ?, ?) " +
        "ON CONFLICT (day, profile) DO UPDATE SET tokens = excluded.tokens, cost = excluded.cost",
      "usage_days.others": "DELETE FROM usage_days WHERE day <> ?",
    });
    this.day = localDay(now());
    this.ends = nextMidnight(now());
    const rows = db
      .prepare("SELECT profile, tokens, cost FROM usage_days WHERE day = ?")
      .all(this.day) as (Spend & { profile: string })[];
    for (const { profile, tokens, cost } of rows) {
      this.byProfile.set(profile, { tokens, cost });
      this.fleet = plus(this.fleet, { tokens, cost });
    }
    store.writeLater([["usage_days.others", this.day]]);
  }

  /** The day in course, `YYYY-MM-DD`: the first look past midnight starts the new one from nothing. */
  today(): string {
    const now = this.now();
    if (now < this.ends) return this.day;
    this.day = localDay(now);
    this.ends = nextMidnight(now);
    this.byProfile.clear();
    this.fleet = NO_SPEND;
    this.store.writeLater([["usage_days.others", this.day]]);
    return this.day;
  }

  add(profile: string, spend: Spend): void {
    const day = this.today();
    const total = plus(this.byProfile.get(profile) ?? NO_SPEND, spend);
    this.byProfile.set(profile, total);
    this.fleet = plus(this.fleet, spend);
    this.store.writeLater([["usage_days.put", day, profile, total.tokens, total.cost]]);
  }

  /** Today's spend of a profile's sessions, or (no profile) of the fleet's. */
  of(profile: string | undefined): Spend {
    this.today();
    return profile === undefined ? this.fleet : (this.byProfile.get(profile) ?? NO_SPEND);
  }
}
