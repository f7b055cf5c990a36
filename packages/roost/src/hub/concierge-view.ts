/** How the hub shows the concierge: its line (what it said; a need stands out), suggestions, orders. */
import { CONFIGURE_MODEL_LINE } from "../protocol/concierge.js";
import type { JobRow } from "../protocol/rows.js";
import type { HubState } from "./hub-state.js";
import { clockTime } from "./pane-view.js";
import { isWaiting } from "./row-look.js";
import { editorLine, fit } from "./row-view.js";
import {
  bold,
  cyan,
  dim,
  errorBackground,
  green,
  grey,
  magenta,
  oneLine,
  selectedBackground,
  yellow,
} from "./style.js";

/**
 * The concierge's line, above the bottom lines: on or off, its policy, what it said last. What it
 * said it needs the person for is drawn on red, so it is seen from across the room.
 */
export function conciergeLine(state: HubState, width: number): string {
  const c = state.concierge;
  if (!c) return "";
  const { status, said } = c;
  // Failed or without a model, it is shown so, with what to do, before anything it said.
  if (status.failed !== null)
    return errorBackground(
      fit(` ✗ concierge failed: ${oneLine(status.failed)} · C o starts it again`, width),
    );
  if (!status.running && status.unavailable !== null)
    return fit(
      ` ${grey("◇ concierge off")}${dim(` · cannot run without a model: ${CONFIGURE_MODEL_LINE}`)}`,
      width,
    );
  const head = status.running ? green("◆ concierge") : grey("◇ concierge off");
  const policy = dim(
    ` · answers ${status.policy.answer} · acts ${status.policy.act ? "on" : "off"} · ${status.orders} order${status.orders === 1 ? "" : "s"}`,
  );
  // What it said comes first: the policy may be cut at the edge, never the news.
  const saying = said
    ? ` ${said.kind === "need" ? bold("needs you:") : `${said.kind}:`} ${oneLine(said.text)}${dim(` (${clockTime(said.at).trim() || "now"})`)}`
    : status.running
      ? dim(" · c asks it, C sets it")
      : dim(" · C o turns it on");
  const line = fit(` ${head}${saying}${policy}`, width);
  return said?.kind === "need" ? errorBackground(line) : line;
}

/** Under a waiting row: the answer the concierge suggests, sent as the person's with `y`. */
export function suggestedLine(row: JobRow, width: number, selected: boolean): string | null {
  if (!row.suggested || !isWaiting(row)) return null;
  const why = row.suggested.why ? dim(` (${oneLine(row.suggested.why)})`) : "";
  const line = fit(
    `      ${magenta("✦ concierge suggests")} ${yellow(JSON.stringify(oneLine(row.suggested.text)))}${why} ${dim("· y sends it")}`,
    width,
  );
  return selected ? selectedBackground(line) : line;
}

/** The bottom line while the concierge's menu or one of its editors is open, or null. */
export function conciergeStatusLine(state: HubState, width: number): string | null {
  const mode = state.mode;
  const status = state.concierge?.status;
  if (mode.kind === "concierge" && status)
    return fit(
      bold(cyan(" Concierge ")) +
        `o: ${status.running ? "off" : "on"} · a: answers ${status.policy.answer} · t: acts ${status.policy.act ? "on" : "off"} · u: undo its last answer · n: new order · d: drop an order`,
      width,
    );
  if (mode.kind === "concierge-ask")
    return editorLine(bold(cyan(" Ask the concierge › ")), mode.editor, width);
  if (mode.kind === "add-order")
    return editorLine(bold(cyan(" New order (WHEN | text, or text) › ")), mode.editor, width);
  if (mode.kind === "drop-order") return editorLine(bold(cyan(" Drop order # › ")), mode.editor, width);
  return null;
}
