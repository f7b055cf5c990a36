import type { Terminal } from "@mariozechner/pi-tui";
import { readNotifySettings } from "../home/notify-settings.js";
import type { StatePaths } from "../home/paths.js";
import type { JobRow } from "../protocol/rows.js";
import { isWaiting } from "./row-look.js";

/**
 * The hub's word to a person looking elsewhere: the terminal's bell when a session starts waiting
 * for them (off with `"hub": {"bell": false}` in roost.json, read at each ring), and the window's
 * title counting the waiting, `(2) roost`. Rows as first received ring nothing.
 */
export class HubBell {
  private waiting = new Set<string>();
  private titled: number | null = null;

  constructor(
    private readonly paths: Pick<StatePaths, "config">,
    private readonly terminal: Terminal,
  ) {}

  seen(rows: JobRow[]): void {
    this.waiting = new Set(rows.filter(isWaiting).map((row) => row.id));
    this.title();
  }

  changed(row: JobRow): void {
    const was = this.waiting.has(row.id);
    if (!isWaiting(row)) this.waiting.delete(row.id);
    else if (!was) {
      this.waiting.add(row.id);
      if (readNotifySettings(this.paths).bell) this.terminal.write("\x07");
    }
    this.title();
  }

  removed(id: string): void {
    this.waiting.delete(id);
    this.title();
  }

  private title(): void {
    if (this.titled === this.waiting.size) return;
    this.titled = this.waiting.size;
    this.terminal.setTitle(this.waiting.size > 0 ? `(${this.waiting.size}) roost` : "roost");
  }
}
