/** The hub's two bottom lines: how the last action went (or the dialog open), and the keys. */

import { statOf, statText } from "../protocol/worktree-text.js";
import { conciergeStatusLine } from "./concierge-view.js";
import { startConfirmText } from "./finished-reply.js";
import {
  type ConfirmedAction,
  DISPATCH_FIELDS,
  type HubState,
  type Mode,
  type NoticeTone,
} from "./hub-state.js";
import { shortPath } from "./row-list.js";
import { editorLine, fit } from "./row-view.js";
import { bold, cyan, dim, errorBackground, green, grey, inverse, oneLine, red, yellow } from "./style.js";

const TONES: Record<NoticeTone, (text: string) => string> = {
  ok: green,
  info: cyan,
  warn: yellow,
  error: red,
};

/** The choices around the chosen one that fit in `room` columns, the chosen one always among them. */
function choiceWindow(choices: string[], choice: number, room: number): string {
  const cell = (i: number) => ` ${choices[i]} `;
  let from = choice;
  let to = choice + 1;
  let used = cell(choice).length + 2;
  // Grow to the right first, then to the left, while the next one fits (2 columns for the ‹ › marks).
  for (let grew = true; grew; ) {
    grew = false;
    if (to < choices.length && used + cell(to).length <= room) {
      used += cell(to++).length;
      grew = true;
    }
    if (from > 0 && used + cell(from - 1).length <= room) {
      used += cell(--from).length;
      grew = true;
    }
  }
  let out = from > 0 ? dim("‹") : " ";
  for (let i = from; i < to; i++) out += i === choice ? inverse(cell(i)) : cell(i);
  return out + (to < choices.length ? dim("›") : " ");
}

/** A confirmation: the question and its keys first (they must show at any width), then what follows. */
const CONFIRM_TEXT: Record<ConfirmedAction, (name: string) => string> = {
  remove: (name) => `Remove ${name}?  y: remove  n: keep · its process ends and its folder is deleted`,
  stop: (name) => `Stop ${name}?  y: stop  n: keep running · a reply will not start it again`,
  respawn: (name) => `Respawn ${name}?  y: respawn  n: keep running · its process ends and starts again`,
};

export function statusLine(state: HubState, width: number): string {
  const mode = state.mode;
  if (mode.kind === "confirm") {
    const name = oneLine(state.rows.get(mode.id)?.name ?? mode.id);
    return errorBackground(fit(` ${CONFIRM_TEXT[mode.action](name)}`, width));
  }
  if (mode.kind === "confirm-merge") return mergeConfirmLine(state, mode, width);
  if (mode.kind === "confirm-start") {
    const row = state.rows.get(mode.id);
    return errorBackground(fit(` ${row ? startConfirmText(row) : "The row is gone. Esc: back"}`, width));
  }
  if (mode.kind === "dispatch-profile") {
    if (state.profilesError !== null)
      return fit(red(" roost.json cannot be read: the error is above. Esc: back"), width);
    if (state.profiles.length === 0)
      return fit(yellow(" No profiles in roost.json (agentProfiles). Esc: back"), width);
    const prefix = " New job from ";
    const names = choiceWindow(state.profiles, mode.choice, width - prefix.length - 2);
    return fit(
      `${prefix}${names}  ${dim(`${mode.choice + 1}/${state.profiles.length} · ←/→ · Enter: task`)}`,
      width,
    );
  }
  if (mode.kind === "schedule-pick") {
    const schedules = state.schedules ?? [];
    if (schedules.length === 0)
      return fit(yellow(' No schedules: roost schedule add "every 30m" PROFILE [TASK]. Esc: back'), width);
    const chosen = schedules[Math.min(mode.choice, schedules.length - 1)]!;
    const prefix = " Schedule ";
    const keys = `  ${dim(`r: run now · p: ${chosen.paused ? "resume" : "pause"}`)}`;
    const names = schedules.map((s) => `${oneLine(s.name)}${s.paused ? " (paused)" : ""}`);
    return fit(`${prefix}${choiceWindow(names, mode.choice, width - prefix.length - 28)}${keys}`, width);
  }
  if (mode.kind === "dispatch-task") {
    const others = DISPATCH_FIELDS.filter((f) => f !== mode.field && mode.values[f] !== "")
      .map((f) => `${f} ${f === "folder" ? shortPath(mode.values[f]) : mode.values[f]}`)
      .join(" · ");
    // No row gave a folder: the line asks for the one it starts in.
    const field =
      mode.field === "folder" && mode.values.folder === "" ? "which folder does it start in?" : mode.field;
    const prompt = bold(cyan(` New ${mode.profile}${others ? dim(` (${others})`) : ""} · ${field} › `));
    return editorLine(prompt, mode.editor, width);
  }
  const concierge = conciergeStatusLine(state, width);
  if (concierge !== null) return concierge;
  if (mode.kind === "add-task") return editorLine(bold(cyan(" New task › ")), mode.editor, width);
  if (mode.kind === "filter") return editorLine(bold(cyan(" / ")), mode.editor, width);
  if (state.notice) return fit(` ${TONES[state.notice.tone](oneLine(state.notice.text))}`, width);
  return "";
}

/** `m`: what the merge brings, from its dry run, before `y` acts; its refusal, keys first. */
function mergeConfirmLine(
  state: HubState,
  mode: Extract<Mode, { kind: "confirm-merge" }>,
  width: number,
): string {
  const name = oneLine(state.rows.get(mode.id)?.name ?? mode.id);
  const { result, error } = mode.plan;
  if (error !== null)
    return errorBackground(fit(` Esc: back · merging ${name} is refused: ${oneLine(error)}`, width));
  if (result === null) return fit(cyan(` Merge ${name}? Asking what it brings… Esc: back`), width);
  const what = `${oneLine(result.branch)} into ${oneLine(result.into)}`;
  return errorBackground(
    fit(` Merge ${what}?  y: merge  n: keep · ${statText(statOf(result.files))} (${result.strategy})`, width),
  );
}

const HINTS: Partial<Record<Mode["kind"], string>> = {
  list: "Enter reply · s steer · 1-9 pick · Tab waiting · i details · a attach · x stop · o respawn · n new · / filter",
  reply: "Enter send · Esc cancel · C-t steer/after",
  rename: "Enter save · Esc cancel",
  filter: "type to filter · Enter keep · Esc clear",
  confirm: "y yes · n or Esc no",
  "confirm-start": "y or Enter yes · n or Esc no",
  "dispatch-profile": "←/→ profile · Enter task · Esc cancel",
  "dispatch-task": "Enter dispatch · Tab task / name / folder · Esc cancel",
  "add-task": "Enter add to the board · Esc cancel",
  concierge: "o on/off · a answers · t acts · u undo · n new order · d drop order · Esc back",
  "concierge-ask": "Enter ask · Esc cancel",
  "add-order": "every 30m | check the build · Enter keep · Esc cancel",
  "drop-order": "the order's number · Enter drop · Esc cancel",
  "schedule-pick": "←/→ schedule · r run now · p pause / resume · Esc back",
  help: "↑↓ PgUp PgDn scroll · any other key closes the help",
  detail: "↑↓ PgUp PgDn scroll · Esc back · a key of the list acts on this row",
  diff: "↑↓ PgUp PgDn scroll · m merge · Esc back · a key of the list acts on this row",
  transcript: "↑↓ PgUp PgDn · End follows · Esc back · a key of the list acts on this row",
  "confirm-merge": "y merge · n or Esc keep",
};

/** An empty list's hints: the one key that does something there, for a newcomer's first session. */
const EMPTY_LIST_HINTS = "n new session from a profile";

/** Kept at the end of the list's hints whatever the width: how to get help and out. */
const HINTS_KEPT = " · ? help · q quit";

/** `empty`: the fleet has no session yet. */
export function hintLine(mode: Mode["kind"], width: number, empty = false): string {
  const hints = mode === "list" && empty ? EMPTY_LIST_HINTS : (HINTS[mode] ?? "");
  if (mode !== "list") return fit(grey(` ${hints}`), width);
  const room = width - HINTS_KEPT.length;
  const cut = room > 10 ? ` ${hints}`.slice(0, room) : "";
  // Cut at the last whole hint that fits.
  const whole = cut.length < hints.length + 1 ? cut.slice(0, cut.lastIndexOf(" · ")) : cut;
  return fit(grey(`${whole}${whole ? HINTS_KEPT : ` ${HINTS_KEPT.slice(3)}`}`), width);
}
