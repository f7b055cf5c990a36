import type { ConciergeEvent, ConciergeStatus, StandingOrder } from "../protocol/concierge.js";
import type { DescribeResult } from "../protocol/describe.js";
import type { JobRow } from "../protocol/rows.js";
import type { TranscriptEntry, TranscriptProgram } from "../protocol/transcript.js";
import type { DiffResult, MergeResult } from "../protocol/worktrees.js";
import type { LineEditor } from "./line-editor.js";
import type { BoardCounts, BoardTaskItem, FeedItem, ScheduleItem } from "./optional-ops.js";
import { RememberedList } from "./remembered-list.js";
import { type Entry, type Grouping, rowEntries } from "./row-list.js";
import { rowLook } from "./row-look.js";

export type ConnectionStatus = "connecting" | "connected" | "gone";
/** The lower pane: each shows only when the daemon answers its op. */
export type PaneKind = "events" | "board" | "schedules" | "orders";

/** What a view over one job shows, as the daemon last gave it. */
export interface JobView<T> {
  id: string;
  result: T | null;
  /** Why the daemon could not give it (its code and reason). */
  error: string | null;
}

/** The job's details as it was last described: what `i` shows. */
export type JobDetail = JobView<DescribeResult>;
/** A job's worktree diff as last asked for: what `d` shows. */
export type JobDiff = JobView<DiffResult>;

/** A job's transcript as the view has read it so far: what `t` shows. */
export interface JobTranscript {
  id: string;
  /** Whose record it is, once the daemon said. */
  program: TranscriptProgram | null;
  /** The entries read, oldest first (the view keeps the last of them: see `dropped`). */
  entries: TranscriptEntry[];
  /** Entries left out at the front, to keep the view's memory bounded. */
  dropped: number;
  /** Where the next read starts. */
  cursor: string;
  /** Whether the record as it stood is read to its end (later reads bring what is new). */
  loaded: boolean;
  /** Why the last read failed (its code and reason); the entries read before stay. */
  error: string | null;
}

/** What a merge would bring (a dry run), asked before `y` merges; `error` is the refusal. */
export interface MergePlan {
  result: MergeResult | null;
  error: string | null;
}

/** What a new job is given in the hub besides its profile, in the order Tab goes through them. */
export const DISPATCH_FIELDS = ["task", "name", "folder"] as const;
export type DispatchField = (typeof DISPATCH_FIELDS)[number];

/** What asks first: removing always, stopping or respawning a job that runs. */
export type ConfirmedAction = "remove" | "stop" | "respawn";

/** What the keys do now: the list, or one of the small dialogs drawn in place. */
export type Mode =
  | { kind: "list" }
  /** `start`: the person confirmed that the reply starts a finished command again. */
  | { kind: "reply"; id: string; steer: boolean; editor: LineEditor; start: boolean }
  /** Asked before a reply line that would start a finished command again. */
  | { kind: "confirm-start"; id: string }
  | { kind: "rename"; id: string; editor: LineEditor }
  | { kind: "filter"; editor: LineEditor; previous: string }
  | { kind: "confirm"; action: ConfirmedAction; id: string }
  | { kind: "dispatch-profile"; choice: number }
  | {
      kind: "dispatch-task";
      profile: string;
      /** The field being typed (Tab moves on) and its editor; the others' texts in `values`. */
      field: DispatchField;
      editor: LineEditor;
      values: Record<DispatchField, string>;
    }
  | { kind: "add-task"; editor: LineEditor }
  | { kind: "concierge" }
  | { kind: "concierge-ask"; editor: LineEditor }
  | { kind: "add-order"; editor: LineEditor }
  | { kind: "drop-order"; editor: LineEditor }
  | { kind: "schedule-pick"; choice: number }
  | { kind: "help"; scroll: number }
  | { kind: "detail"; id: string; scroll: number }
  | { kind: "diff"; id: string; scroll: number }
  /** `follow`: the view stays at the end of the transcript as entries come (scrolling up leaves it). */
  | { kind: "transcript"; id: string; scroll: number; follow: boolean }
  /** `m`: the merge's dry run shows first; `y` merges only once it says what comes. */
  | { kind: "confirm-merge"; id: string; plan: MergePlan };

export type NoticeTone = "ok" | "info" | "warn" | "error";

/** The outcome of the last thing the user did (a reply saved, a refusal and its reason, ...). */
export interface Notice {
  text: string;
  tone: NoticeTone;
  /** The row whose state it tells ("asks nothing now"): it goes when that row changes. */
  row?: string;
}

export type { BoardCounts, BoardTaskItem, FeedItem, ScheduleItem };

/** The concierge as the hub knows it: how it stands, what it said last, its standing orders. */
export interface ConciergeView {
  status: ConciergeStatus;
  said: ConciergeEvent["said"] | null;
  orders: StandingOrder[];
}

/**
 * What the screen last showed of a row's choices (in the list, or in the details shown), each by its number, and the question they answer: a digit picks only one of these, and
 * the reply says the question, so an agent that asks something else by then does not take it.
 */
export interface Picks {
  id: string;
  question: string | null;
  choices: Map<number, string>;
}

export function picksOf(row: JobRow, numbers: number[]): Picks {
  return {
    id: row.id,
    question: row.question,
    choices: new Map(numbers.map((n) => [n, row.choices[n - 1]!])),
  };
}

/** Everything the hub's view is drawn from: the daemon's rows and the user's view of them. */
export interface HubState {
  rows: Map<string, JobRow>;
  selectedId: string | null;
  grouping: Grouping;
  filter: string;
  mode: Mode;
  /** The lower pane shown, if any. */
  pane: PaneKind | null;
  connection: ConnectionStatus;
  /** Why the daemon cannot be reached, while it cannot. */
  connectionDetail: string | null;
  notice: Notice | null;
  /** Profiles a new job can be dispatched from. */
  profiles: string[];
  /** Why roost.json could not be read, in full, while it cannot. */
  profilesError: string | null;
  /** The feed, or null while the daemon has no `events` op. */
  events: FeedItem[] | null;
  /** The board, or null while the daemon has no `task` op. */
  board: { counts: BoardCounts; tasks: BoardTaskItem[] } | null;
  /** The schedules, or null while the daemon has no `schedules` op. */
  schedules: ScheduleItem[] | null;
  /** The concierge, or null while the daemon has no `concierge` op. */
  concierge: ConciergeView | null;
  /** The job the detail view shows, as last described. */
  detail: JobDetail | null;
  /** The job whose worktree diff shows, as last asked for. */
  diff: JobDiff | null;
  /** The job whose transcript shows, as read so far. */
  transcript: JobTranscript | null;
  /**
   * Grouped by state, the group a row acted on stays in until the selection moves: the row does not
   * jump from under the cursor right after the action, where the next key would hit another row.
   */
  heldGroups: Map<string, string>;
  /** When each row last changed in a way the user reads (not a pin, a rename or a new order). */
  changedAt: Map<string, number>;
  /** The choices drawn on the screen now, by row (set as it is drawn). */
  picks: Map<string, Picks>;
}

export function initialHubState(): HubState {
  return {
    rows: new Map(),
    selectedId: null,
    grouping: "dir",
    filter: "",
    mode: { kind: "list" },
    pane: null,
    connection: "connecting",
    connectionDetail: null,
    notice: null,
    profiles: [],
    profilesError: null,
    events: null,
    board: null,
    schedules: null,
    concierge: null,
    detail: null,
    diff: null,
    transcript: null,
    heldGroups: new Map(),
    changedAt: new Map(),
    picks: new Map(),
  };
}

/** The panes the daemon supports now, in the order `v` cycles through them. */
export function availablePanes(state: HubState): PaneKind[] {
  const panes: PaneKind[] = [];
  if (state.events !== null) panes.push("events");
  if (state.board !== null) panes.push("board");
  if (state.schedules !== null) panes.push("schedules");
  if (state.concierge !== null) panes.push("orders");
  return panes;
}

/** Each state's list, laid out again only when a row moves (see `RememberedList`). */
const lists = new WeakMap<HubState, RememberedList>();

/** The list as the state shows it. */
export function shownEntries(state: HubState): Entry[] {
  let list = lists.get(state);
  if (list === undefined) {
    list = new RememberedList();
    lists.set(state, list);
  }
  return list.entries(state.rows, state.grouping, state.filter, state.heldGroups);
}

/** Grouped by state, the row acted on keeps its place until the selection moves (see `heldGroups`). */
export function holdPlace(state: HubState, id: string): void {
  const row = state.rows.get(id);
  if (state.grouping === "state" && row && !state.heldGroups.has(id))
    state.heldGroups.set(id, rowLook(row).group);
}

/** Drops a row; when it was the selected one, the selection moves to the row that took its place. */
export function removeRow(state: HubState, id: string): void {
  if (state.selectedId === id) {
    const ids = rowEntries(shownEntries(state)).map((e) => e.row.id);
    const at = ids.indexOf(id);
    state.selectedId = ids[at + 1] ?? ids[at - 1] ?? null;
  }
  state.rows.delete(id);
  state.changedAt.delete(id);
  state.heldGroups.delete(id);
}
