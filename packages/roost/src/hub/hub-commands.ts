import { randomUUID } from "node:crypto";
import { isDisconnected } from "../client/daemon-client.js";
import { loadProfiles } from "../daemon/config.js";
import { statePaths } from "../daemon/paths.js";
import { RoostError } from "../protocol/errors.js";
import type { ReplyResult } from "../protocol/ops.js";
import type { HubConnection } from "./hub-connection.js";
import type { HubState, NoticeTone } from "./hub-state.js";
import { isMissingOp } from "./optional-ops.js";
import { compareRows } from "./row-list.js";

/** How long a reply or dispatch interrupted by a daemon restart waits for it to be back. */
const RESEND_WAIT_MS = 60_000;

/** What the hub asks of the daemon on the user's behalf; each outcome shows as the notice. */
export class HubCommands {
  constructor(
    private readonly state: HubState,
    private readonly connection: HubConnection,
    private readonly home: string,
    private readonly changed: () => void,
  ) {}

  reply(id: string, text: string, steer: boolean): void {
    const name = this.nameOf(id);
    const requestId = `hub-${randomUUID()}`;
    const question = this.state.rows.get(id)?.question ?? null;
    this.notify(`Sending to ${name}…`, "info");
    void this.resending(() =>
      // The question shown with the row: a terminal agent asking another by now holds the reply.
      this.connection.call("reply", { id, text, mode: steer ? "steer" : "followUp", requestId, question }),
    ).then(
      (result) => this.notify(replyOutcome(name, result, steer), "ok"),
      (error) => this.refused(`Reply to ${name}`, error),
    );
  }

  stop(id: string): void {
    const name = this.nameOf(id);
    this.run(`Stop ${name}`, () => this.connection.call("stop", { id }), `Stopped ${name}.`);
  }

  respawn(id: string): void {
    const name = this.nameOf(id);
    this.run(`Respawn ${name}`, () => this.connection.call("respawn", { id }), `Started ${name} again.`);
  }

  remove(id: string): void {
    const name = this.nameOf(id);
    this.run(`Remove ${name}`, () => this.connection.call("rm", { id }), `Removed ${name}.`);
  }

  setPinned(id: string, pinned: boolean): void {
    const name = this.nameOf(id);
    this.run(
      `Pin ${name}`,
      () => this.connection.call("pin", { id, pinned }),
      pinned ? `Pinned ${name}.` : `Unpinned ${name}.`,
    );
  }

  rename(id: string, name: string): void {
    const old = this.nameOf(id);
    this.run(
      `Rename ${old}`,
      () => this.connection.call("rename", { id, name }),
      `Renamed ${old} to ${name}.`,
    );
  }

  /** Swaps the row with its neighbour among the rows of its kind (pinned or not), and sends the order. */
  move(id: string, direction: -1 | 1): void {
    const row = this.state.rows.get(id);
    if (!row) return;
    const ordered = [...this.state.rows.values()].sort(compareRows);
    const at = ordered.indexOf(row);
    const neighbour = ordered[at + direction];
    if (!neighbour || neighbour.pinned !== row.pinned) {
      this.notify(
        `${row.name} is ${direction < 0 ? "first" : "last"} already${row.pinned ? " of the pinned" : ""}.`,
        "info",
      );
      return;
    }
    ordered[at] = neighbour;
    ordered[at + direction] = row;
    const ids = ordered.map((r) => r.id);
    this.run(
      `Move ${row.name}`,
      () => this.connection.call("reorder", { ids }),
      `Moved ${row.name} ${direction < 0 ? "up" : "down"}.`,
    );
  }

  dispatch(profile: string, task: string): void {
    const requestId = `hub-${randomUUID()}`;
    this.notify(`Dispatching ${profile}…`, "info");
    void this.resending(() =>
      this.connection.call("dispatch", {
        profile,
        cwd: this.state.cwd,
        ...(task !== "" ? { task } : {}),
        requestId,
      }),
    ).then(
      ({ id, name }) => {
        this.state.selectedId = id;
        this.notify(`Started ${name} (${id}) from ${profile}.`, "ok");
      },
      (error) => this.refused(`Dispatch ${profile}`, error),
    );
  }

  /** The profiles a job can be dispatched from: the daemon's `profiles` op, else the home's roost.json. */
  loadProfiles(): void {
    const fromFile = () => {
      try {
        this.state.profiles = [...loadProfiles(statePaths(this.home).config).keys()];
      } catch (error) {
        this.state.profiles = [];
        this.refused("Read the profiles", error);
      }
    };
    fromFile();
    void this.connection.call("profiles", {}).then(
      (result) => {
        const names = profileNames(result);
        if (names) {
          this.state.profiles = names;
          this.changed();
        }
      },
      (error) => {
        if (!isMissingOp(error) && !isDisconnected(error)) this.refused("List the profiles", error);
      },
    );
  }

  private run(what: string, op: () => Promise<unknown>, success: string): void {
    op().then(
      () => this.notify(success, "ok"),
      (error) => this.refused(what, error),
    );
  }

  /**
   * An op carrying a request id, sent again with the same id when the daemon went away before it
   * answered: the daemon takes it once (a resend of a reply answers `duplicate`).
   */
  private async resending<T>(op: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await op();
      } catch (error) {
        if (!isDisconnected(error)) throw error;
        this.notify("The daemon is gone; sending again when it is back…", "warn");
        if (!(await this.connection.whenConnected(RESEND_WAIT_MS))) throw error;
      }
    }
  }

  private refused(what: string, error: unknown): void {
    const code = error instanceof RoostError ? error.code : "internal";
    const message = error instanceof Error ? error.message : String(error);
    this.notify(`${what} refused: ${code}: ${message}`, "error");
  }

  private notify(text: string, tone: NoticeTone): void {
    this.state.notice = { text, tone };
    this.changed();
  }

  private nameOf(id: string): string {
    return this.state.rows.get(id)?.name ?? id;
  }
}

function replyOutcome(name: string, result: ReplyResult, steer: boolean): string {
  if ("stopped" in result) return `${name} stopped (/stop is not delivered).`;
  if ("dropped" in result) return `The reply held for ${name} was dropped.`;
  if ("held" in result)
    return `${name} asks nothing now: the reply is held, not typed. Send it when it asks (Enter on the row).`;
  if ("duplicate" in result)
    return `Reply to ${name} was saved already (duplicate)${result.seq ? `: #${result.seq}` : ""}.`;
  return `Reply #${result.seq} saved for ${name}${steer ? " (steer)" : ""}.`;
}

function profileNames(result: unknown): string[] | undefined {
  const value = (result as { profiles?: unknown } | null)?.profiles;
  if (Array.isArray(value))
    return value.map((p) => (typeof p === "string" ? p : String((p as { name?: unknown }).name)));
  if (value && typeof value === "object") return Object.keys(value);
  return undefined;
}
