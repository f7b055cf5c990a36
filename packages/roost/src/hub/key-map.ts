import { parseKey } from "@mariozechner/pi-tui";

/** Every key of the hub: what the input handler obeys and what the help overlay lists. */

export type ListCommand =
  | "up"
  | "down"
  | "top"
  | "bottom"
  | "page-up"
  | "page-down"
  | "next-waiting"
  | "previous-waiting"
  | "reply"
  | "steer"
  | "attach"
  | "describe"
  | "transcript"
  | "diff"
  | "merge"
  | "stop"
  | "respawn"
  | "remove"
  | "pin"
  | "rename"
  | "move-up"
  | "move-down"
  | "new"
  | "add-task"
  | "schedules"
  | "accept"
  | "ask"
  | "concierge"
  | "filter"
  | "clear-filter"
  | "group"
  | "pane"
  | "help"
  | "redraw"
  | "quit";

export interface KeyBinding {
  command: ListCommand;
  /** Key ids as the input handler names them (pi-tui's, with shifted letters as capitals). */
  keys: string[];
  /** How the help shows the keys. */
  label: string;
  help: string;
}

export const LIST_KEYS: KeyBinding[] = [
  { command: "up", keys: ["up", "k"], label: "↑ k", help: "row above" },
  { command: "down", keys: ["down", "j"], label: "↓ j", help: "row below" },
  { command: "page-up", keys: ["pageUp"], label: "PgUp", help: "a page up" },
  { command: "page-down", keys: ["pageDown"], label: "PgDn", help: "a page down" },
  { command: "top", keys: ["home"], label: "Home", help: "first row" },
  { command: "bottom", keys: ["end"], label: "End", help: "last row" },
  { command: "next-waiting", keys: ["tab", "w"], label: "Tab w", help: "next row waiting for you" },
  { command: "previous-waiting", keys: ["shift+tab", "W"], label: "S-Tab W", help: "previous waiting row" },
  { command: "reply", keys: ["enter", "r"], label: "Enter r", help: "reply (after current work)" },
  { command: "steer", keys: ["s"], label: "s", help: "steer (joins current work)" },
  { command: "attach", keys: ["a"], label: "a", help: "attach to its terminal" },
  { command: "describe", keys: ["i"], label: "i", help: "details: how it runs, last output, events" },
  {
    command: "transcript",
    keys: ["t"],
    label: "t",
    help: "its conversation: messages, answers, tool calls (follows live)",
  },
  { command: "diff", keys: ["d"], label: "d", help: "its worktree's changes against the base" },
  { command: "merge", keys: ["m"], label: "m", help: "merge its worktree's work (shows what, asks first)" },
  { command: "stop", keys: ["x"], label: "x", help: "stop the session (asks first)" },
  { command: "respawn", keys: ["o"], label: "o", help: "start again (asks first if it runs)" },
  { command: "remove", keys: ["D", "delete"], label: "D Del", help: "remove (asks first)" },
  { command: "pin", keys: ["p"], label: "p", help: "pin / unpin" },
  { command: "rename", keys: ["R"], label: "R", help: "rename the row" },
  { command: "move-up", keys: ["K", "shift+up"], label: "K S-↑", help: "move the row up" },
  { command: "move-down", keys: ["J", "shift+down"], label: "J S-↓", help: "move the row down" },
  { command: "new", keys: ["n"], label: "n", help: "new job: profile, task (Tab: name, folder)" },
  { command: "add-task", keys: ["T"], label: "T", help: "add a task to the board" },
  { command: "schedules", keys: ["S"], label: "S", help: "schedules: run one now, pause, resume" },
  { command: "accept", keys: ["y"], label: "y", help: "send the concierge's suggested answer" },
  { command: "ask", keys: ["c"], label: "c", help: "ask the concierge" },
  { command: "concierge", keys: ["C"], label: "C", help: "concierge: on/off, policy, undo, orders" },
  { command: "filter", keys: ["/"], label: "/", help: "filter rows by text" },
  { command: "clear-filter", keys: ["escape"], label: "Esc", help: "clear the filter" },
  { command: "group", keys: ["g"], label: "g", help: "group by folder / state" },
  { command: "pane", keys: ["v"], label: "v", help: "events / board / schedules / orders" },
  { command: "help", keys: ["?", "f1"], label: "?", help: "this help" },
  { command: "redraw", keys: ["ctrl+l"], label: "C-l", help: "redraw the screen" },
  { command: "quit", keys: ["q", "ctrl+c"], label: "q C-c", help: "quit (sessions keep running)" },
];

/** Keys that only mean something inside a dialog, for the help. */
export const DIALOG_KEYS: { label: string; help: string }[] = [
  { label: "1-9", help: "pick a waiting row's choice" },
  { label: "Enter", help: "in a line: send / save" },
  { label: "Esc", help: "in a line or dialog: cancel" },
  { label: "C-t", help: "in a reply: steer / after" },
  { label: "← →", help: "new job, schedules: choose" },
  { label: "y n", help: "remove, stop, respawn, merge: confirm / keep" },
];

const BY_KEY = new Map<string, ListCommand>(
  LIST_KEYS.flatMap((b) => b.keys.map((k) => [k, b.command] as const)),
);

/** The list command a key id stands for. */
export function listCommand(key: string): ListCommand | undefined {
  return BY_KEY.get(key);
}

/** Home and End as tmux and the Linux console send them, which pi-tui does not name. */
const LEGACY_KEYS: Record<string, string> = { "\x1b[1~": "home", "\x1b[4~": "end" };

/**
 * The key an input is, as the hub names it: pi-tui's id, except that a kitty-encoded shifted
 * letter (`shift+j`) is the capital (`J`) other terminals send.
 */
export function keyOf(data: string): string | undefined {
  const key = parseKey(data) ?? LEGACY_KEYS[data];
  if (key === undefined) return undefined;
  const shifted = /^shift\+([a-z])$/.exec(key);
  return shifted ? shifted[1]!.toUpperCase() : key;
}
