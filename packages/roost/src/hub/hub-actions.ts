import type { MergePlan } from "./hub-state.js";

/** What the keys ask of the daemon and of the hub around the view. */
export interface HubActions {
  /** `start`: the person confirmed that it starts a finished command again. */
  reply(id: string, text: string, steer: boolean, start?: boolean): void;
  /** Sends a choice the screen showed, as the answer to the question shown with it. */
  pick(id: string, choice: string, question: string | null): void;
  stop(id: string): void;
  respawn(id: string): void;
  remove(id: string): void;
  setPinned(id: string, pinned: boolean): void;
  rename(id: string, name: string): void;
  /** Swaps the row with its neighbour in the user's order (`-1` up, `1` down). */
  move(id: string, direction: -1 | 1): void;
  /** Reads the profiles (into the state) before the profile picker shows. */
  loadProfiles(): void;
  /** A new job; `name` empty lets the daemon name it. */
  dispatch(profile: string, task: string, name: string, cwd: string): void;
  /** A new task on the board. */
  addTask(title: string): void;
  /** Runs a schedule now. */
  runSchedule(id: string): void;
  pauseSchedule(id: string, paused: boolean): void;
  /** The concierge: `concierge {action...}` (on, off, answer, act, undo). */
  concierge(args: Record<string, unknown>): void;
  askConcierge(text: string): void;
  /** A standing order; `when` null: on no clock. */
  addOrder(when: string | null, text: string): void;
  dropOrder(id: string): void;
  attach(id: string): void;
  /** Asks the daemon for the job's details (into `state.detail`). */
  describe(id: string): void;
  /** Reads the job's transcript (into `state.transcript`) while its view is open. */
  transcript(id: string): void;
  /** Asks the daemon for the job's worktree diff (into `state.diff`). */
  diff(id: string): void;
  /** A merge's dry run, into the plan the confirmation shows. */
  planMerge(id: string, plan: MergePlan): void;
  merge(id: string): void;
  redraw(): void;
  quit(): void;
}
