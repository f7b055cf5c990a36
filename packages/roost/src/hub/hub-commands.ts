import { randomUUID } from "node:crypto";
import { isDisconnected } from "../client/daemon-client.js";
import { statePaths } from "../home/paths.js";
import { loadProfiles } from "../home/profiles.js";
import { RoostError } from "../protocol/errors.js";
import { statOf, statText } from "../protocol/worktree-text.js";
import type { HubConnection } from "./hub-connection.js";
import type { HubState, MergePlan, NoticeTone } from "./hub-state.js";
import { isMissingOp } from "./optional-ops.js";
import { replyOutcome } from "./reply-outcome.js";
import { compareRows } from "./row-list.js";
import { ViewRefresher } from "./view-refresher.js";

/** The least time between two descriptions (or diffs) of a job that keeps changing. */
const REFRESH_EVERY_MS = 500;

/** How long a reply or dispatch interrupted by a daemon restart waits for it to be back. */
const RESEND_WAIT_MS = 60_000;

/** What the hub asks of the daemon on the user's behalf; each outcome shows as the notice. */
export class HubCommands {
  private readonly details: ViewRefresher;
  private readonly diffs: ViewRefresher;

  constructor(
    private readonly state: HubState,
    private readonly connection: HubConnection,
    private readonly home: string,
    private readonly changed: () => void,
  ) {
    const showing = (kind: "detail" | "diff") => (id: string) =>
      this.state.mode.kind === kind && this.state.mode.id === id;
    this.details = new ViewRefresher(REFRESH_EVERY_MS, (id) => this.fetchDetail(id), showing("detail"));
    this.diffs = new ViewRefresher(REFRESH_EVERY_MS, (id) => this.fetchDiff(id), showing("diff"));
  }

  reply(id: string, text: string, steer: boolean, start = false): void {
    this.send(id, text, steer, this.state.rows.get(id)?.question ?? null, start);
  }

  pick(id: string, choice: string, question: string | null): void {
    this.send(id, choice, false, question, false);
  }

  private send(id: string, text: string, steer: boolean, question: string | null, start: boolean): void {
    const name = this.nameOf(id);
    const requestId = `hub-${randomUUID()}`;
    this.notify(`Sending to ${name}…`, "info");
    void this.resending(() =>
      // The question shown with the row: a terminal agent asking another by now holds the reply.
      this.connection.call("reply", {
        id,
        text,
        mode: steer ? "steer" : "followUp",
        requestId,
        question,
        ...(start ? { start } : {}),
      }),
    ).then(
      // A held reply's outcome tells how the row stands: it goes when the row changes.
      (result) => this.notify(replyOutcome(name, result, steer), "ok", "held" in result ? id : undefined),
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
    this.connection.call("rename", { id, name }).then(
      (result) => {
        const others = [...this.state.rows.values()].filter((r) => r.id !== id && r.name === result.name);
        if (others.length === 0) this.notify(`Renamed ${old} to ${result.name}.`, "ok");
        else
          this.notify(
            `Renamed ${old} to ${result.name}; ${others.map((r) => `#${r.id}`).join(", ")} ${others.length === 1 ? "has" : "have"} that name too (ids show beside it).`,
            "warn",
          );
      },
      (error) => this.refused(`Rename ${old}`, error),
    );
  }

  /** The job's details for the detail view; the view says why when the daemon cannot give them. */
  describe(id: string): void {
    this.details.refresh(id);
  }

  private fetchDetail(id: string): Promise<void> {
    return this.fetchView("detail", id, "No details", () =>
      this.connection.call("describe", { id, lines: 40 }),
    );
  }

  /** The job's worktree diff for the diff view, asked again as its worktree changes. */
  diff(id: string): void {
    this.diffs.refresh(id);
  }

  private fetchDiff(id: string): Promise<void> {
    return this.fetchView("diff", id, "No diff", () => this.connection.call("diff", { id }));
  }

  /** Asks for what the view `key` shows of the job; what it showed before stays while the answer comes. */
  private fetchView<K extends "detail" | "diff">(
    key: K,
    id: string,
    failed: string,
    ask: () => Promise<NonNullable<HubState[K]>["result"]>,
  ): Promise<void> {
    const before = this.state[key];
    const view = { id, result: before?.id === id ? before.result : null, error: null } as NonNullable<
      HubState[K]
    >;
    this.state[key] = view;
    return ask()
      .then(
        (result) => {
          view.result = result;
        },
        (error) => {
          view.error = `${failed}: ${errorText(error)}`;
        },
      )
      .finally(() => this.changed());
  }

  /** What merging would bring, for the confirmation; a refusal (conflicts, uncommitted work) shows there. */
  planMerge(id: string, plan: MergePlan): void {
    this.connection.call("merge", { id, dryRun: true }).then(
      (result) => {
        plan.result = result;
        this.changed();
      },
      (error) => {
        plan.error = errorText(error);
        this.changed();
      },
    );
  }

  merge(id: string): void {
    const name = this.nameOf(id);
    this.notify(`Merging ${name}…`, "info");
    this.connection.call("merge", { id }).then(
      (result) =>
        this.notify(
          `Merged ${result.branch} into ${result.into}: ${statText(statOf(result.files))}${result.commit ? ` (${result.commit.slice(0, 10)})` : ""}.`,
          "ok",
        ),
      (error) => this.refused(`Merge ${name}`, error),
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

  dispatch(profile: string, task: string, name: string, cwd: string): void {
    const requestId = `hub-${randomUUID()}`;
    this.notify(`Dispatching ${profile}…`, "info");
    void this.resending(() =>
      this.connection.call("dispatch", {
        profile,
        cwd,
        ...(task !== "" ? { task } : {}),
        ...(name !== "" ? { name } : {}),
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

  addTask(title: string): void {
    this.run(
      "Add the task",
      () => this.connection.call("task", { action: "add", title }),
      `Added the task "${title}" to the board.`,
    );
  }

  runSchedule(id: string): void {
    const name = this.scheduleName(id);
    this.connection.call("schedule-run", { id: Number(id) }).then(
      (result) => {
        this.state.selectedId = result.job.id;
        this.notify(`Started ${result.job.name} (${result.job.id}) from schedule ${name}.`, "ok");
      },
      (error) => this.refused(`Run schedule ${name}`, error),
    );
  }

  pauseSchedule(id: string, paused: boolean): void {
    const name = this.scheduleName(id);
    this.connection.call(paused ? "schedule-pause" : "schedule-resume", { id: Number(id) }).then(
      (result) => {
        const item = this.state.schedules?.find((s) => s.id === id);
        if (item) item.paused = result.schedule.paused;
        this.notify(`${paused ? "Paused" : "Resumed"} schedule ${name}.`, "ok");
      },
      (error) => this.refused(`${paused ? "Pause" : "Resume"} schedule ${name}`, error),
    );
  }

  concierge(args: Record<string, unknown>): void {
    const what: Record<string, string> = {
      on: "Turned the concierge on.",
      off: "Turned the concierge off.",
      answer: `The concierge answers: ${args.answer}.`,
      act: `The concierge acts: ${args.act ? "on" : "off"}.`,
      undo: "Withdrew the concierge's last answer: the session is told to disregard it.",
    };
    this.connection.call("concierge", args as never).then(
      (status) => {
        if (this.state.concierge) this.state.concierge.status = status;
        this.notify(what[String(args.action)] ?? "Done.", "ok");
      },
      (error) => this.refused(`Concierge ${args.action}`, error),
    );
  }

  askConcierge(text: string): void {
    this.run(
      "Ask the concierge",
      () => this.connection.call("concierge-ask", { text }),
      "Asked the concierge.",
    );
  }

  addOrder(when: string | null, text: string): void {
    this.connection.call("concierge-order", { action: "add", text, ...(when ? { when } : {}) }).then(
      (result) => {
        if (this.state.concierge) this.state.concierge.orders = result.orders;
        this.notify(`Kept order #${result.order?.id}.`, "ok");
      },
      (error) => this.refused("Keep the order", error),
    );
  }

  dropOrder(id: string): void {
    this.connection.call("concierge-order", { action: "rm", id }).then(
      (result) => {
        if (this.state.concierge) this.state.concierge.orders = result.orders;
        this.notify(`Dropped order #${id}.`, "ok");
      },
      (error) => this.refused(`Drop order #${id}`, error),
    );
  }

  private scheduleName(id: string): string {
    return this.state.schedules?.find((s) => s.id === id)?.name ?? `#${id}`;
  }

  /** The profiles a job can be dispatched from: the daemon's `profiles` op, else the home's roost.json. */
  loadProfiles(): void {
    const fromFile = () => {
      try {
        this.state.profiles = [...loadProfiles(statePaths(this.home).config).keys()];
        this.state.profilesError = null;
      } catch (error) {
        this.state.profiles = [];
        this.state.profilesError = errorText(error);
      }
    };
    fromFile();
    void this.connection.call("profiles", {}).then(
      (result) => {
        const names = profileNames(result);
        if (names) {
          this.state.profiles = names;
          this.state.profilesError = null;
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
    this.notify(`${what} refused: ${errorText(error)}`, "error");
  }

  private notify(text: string, tone: NoticeTone, row?: string): void {
    this.state.notice = row === undefined ? { text, tone } : { text, tone, row };
    this.changed();
  }

  private nameOf(id: string): string {
    return this.state.rows.get(id)?.name ?? id;
  }
}

/** A refusal as the user reads it: the daemon's code and reason. */
/** A refusal as the hub shows it: the daemon's code and reason. */
export function errorText(error: unknown): string {
  const code = error instanceof RoostError ? error.code : "internal";
  const message = error instanceof Error ? error.message : String(error);
  return `${code}: ${message}`;
}

function profileNames(result: unknown): string[] | undefined {
  const value = (result as { profiles?: unknown } | null)?.profiles;
  if (Array.isArray(value))
    return value.map((p) => (typeof p === "string" ? p : String((p as { name?: unknown }).name)));
  if (value && typeof value === "object") return Object.keys(value);
  return undefined;
}
