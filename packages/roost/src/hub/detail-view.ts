import type { DescribeResult, RelatedJob } from "../protocol/index.js";
import { usageLine } from "../protocol/usage-text.js";
import { formatAge } from "./age.js";
import { KEYED_CHOICES, wrapPlain } from "./ask-lines.js";
import { boxLines, boxRoom, boxScroll } from "./box-view.js";
import { type HubState, type JobDetail, picksOf } from "./hub-state.js";
import { clockTime } from "./pane-view.js";
import { shortPath } from "./row-list.js";
import { rowLook } from "./row-look.js";
import { bold, cyan, dim, grey, oneLine, red, yellow } from "./style.js";

const field = (label: string, value: string) => ` ${dim(label.padEnd(10))}${value}`;

function relatedList(jobs: RelatedJob[]): string {
  return jobs.map((j) => `${oneLine(j.name)} ${dim(`#${j.id}`)} ${grey(j.lifecycle)}`).join(", ");
}

function heading(text: string): string {
  return grey(`── ${text} ──`);
}

/** The detail view's body, and the line each keyed choice is on. */
interface DetailBody {
  lines: string[];
  choices: { n: number; line: number }[];
}

/** The room a field's value has in a box `width` wide (the borders, a space and the label take the rest). */
const valueRoom = (width: number) => Math.max(10, width - 2 - 11);
/** A field's later lines start under its value. */
const UNDER_VALUE = " ".repeat(11);

/** What the row asks, whole, and every choice with its key (past the ninth: typed as a reply). */
function askedLines(row: DescribeResult["row"], width: number, body: string[]): DetailBody["choices"] {
  if (row.question)
    wrapPlain(row.question, valueRoom(width)).forEach((l, i) => {
      body.push(i === 0 ? field("asks", yellow(l)) : `${UNDER_VALUE}${yellow(l)}`);
    });
  const keyed: DetailBody["choices"] = [];
  row.choices.forEach((choice, i) => {
    const key = i < KEYED_CHOICES ? bold(cyan(String(i + 1))) : dim("·");
    if (i < KEYED_CHOICES) keyed.push({ n: i + 1, line: body.length });
    wrapPlain(choice, valueRoom(width) - 2).forEach((l, j) => {
      body.push(
        j > 0
          ? `${UNDER_VALUE}  ${l}`
          : i === 0
            ? field("choices", `${key} ${l}`)
            : `${UNDER_VALUE}${key} ${l}`,
      );
    });
  });
  if (row.choices.length > KEYED_CHOICES)
    body.push(`${UNDER_VALUE}${dim(`choices past ${KEYED_CHOICES} have no key: Enter, then type one`)}`);
  return keyed;
}

/** The body of the detail view: every fact about the job, its last output lines and its events. */
export function detailBody(detail: JobDetail, now: number, width: number): DetailBody {
  if (detail.error !== null)
    return { lines: [red(` ${detail.error}`), "", dim(" Esc goes back to the list.")], choices: [] };
  const d = detail.result;
  if (d === null) return { lines: [dim(" asking the daemon…")], choices: [] };
  const row = d.row;
  const look = rowLook(row);
  const body = [
    field(
      "id",
      `${row.id}${d.sameName.length ? yellow(`  (also named ${oneLine(row.name)}: ${relatedList(d.sameName)})`) : ""}`,
    ),
    field(
      "profile",
      `${row.profile} ${dim(`· ${row.kind} agent${row.pid !== null ? ` · pid ${row.pid}` : ""}`)}`,
    ),
    field("folder", oneLine(shortPath(row.cwd))),
    field("command", oneLine(d.command.join(" "))),
  ];
  if (row.task) body.push(field("task", oneLine(row.task)));
  const lifecycle = row.lifecycle !== look.label ? ` ${dim(`(${row.lifecycle})`)}` : "";
  const state = `${look.colour(`${look.glyph} ${look.label}`)}${lifecycle}`;
  body.push(field("state", `${state}${row.exitCode !== null ? ` · exit code ${row.exitCode}` : ""}`));
  if (row.error) body.push(field("error", red(oneLine(row.error))));
  if (row.summary) body.push(field("says", oneLine(row.summary)));
  if (row.usage) body.push(field("usage", usageLine(row.usage)));
  const choices = askedLines(row, width, body);
  body.push(
    field(
      "lifecycle",
      `created ${clockTime(row.createdAt)} · changed ${clockTime(row.updatedAt)} (${formatAge(now - Date.parse(row.updatedAt))} ago) · restarts ${row.restarts}`,
    ),
  );
  body.push(field("replies", row.pending > 0 ? `✉${row.pending} not taken yet` : "none waiting"));
  body.push(field("parent", d.parent ? relatedList([d.parent]) : dim("none")));
  body.push(field("children", d.children.length ? relatedList(d.children) : dim("none")));
  body.push("", heading(`last output (${d.lastLines.length} lines)`));
  if (d.lastLines.length === 0) body.push(dim(" nothing shown yet"));
  for (const line of d.lastLines) body.push(` ${oneLine(line)}`);
  body.push("", heading(`events (${d.events.length})`));
  if (d.events.length === 0) body.push(dim(" none yet"));
  for (const e of d.events)
    body.push(
      ` ${dim(clockTime(e.at))} ${cyan(oneLine(`${e.kind} ${e.why}`))} ${oneLine(e.text)} ${dim(`· ${oneLine(e.who)}`)}`,
    );
  return { lines: body, choices };
}

/**
 * The detail overlay for the job `state.detail` describes. The keyed choices it shows in its window
 * are what a digit picks meanwhile (`state.picks`).
 */
export function detailLines(state: HubState, width: number, height: number, now: number, scroll: number) {
  const detail = state.detail;
  const name = detail?.result?.row.name ?? state.rows.get(detail?.id ?? "")?.name ?? detail?.id ?? "";
  const body = detail ? detailBody(detail, now, width) : { lines: [], choices: [] };
  const row = detail?.result?.row;
  if (row) {
    const from = boxScroll(body.lines.length, boxRoom(height), scroll);
    const seen = body.choices.filter((c) => c.line >= from && c.line < from + boxRoom(height));
    state.picks.set(
      row.id,
      picksOf(
        row,
        seen.map((c) => c.n),
      ),
    );
  }
  return boxLines(`${bold(oneLine(name))} · details`, body.lines, width, height, scroll, "Esc closes");
}
