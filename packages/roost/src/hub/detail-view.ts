import type { RelatedJob } from "../protocol/index.js";
import { formatAge } from "./age.js";
import { boxLines } from "./box-view.js";
import type { HubState, JobDetail } from "./hub-state.js";
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

/** The body of the detail view: every fact about the job, its last output lines and its events. */
export function detailBody(detail: JobDetail, now: number): string[] {
  if (detail.error !== null) return [red(` ${detail.error}`), "", dim(" Esc goes back to the list.")];
  const d = detail.result;
  if (d === null) return [dim(" asking the daemon…")];
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
  if (row.question) body.push(field("asks", yellow(oneLine(row.question))));
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
  return body;
}

/** The detail overlay for the job `state.detail` describes. */
export function detailLines(state: HubState, width: number, height: number, now: number, scroll: number) {
  const detail = state.detail;
  const name = detail?.result?.row.name ?? state.rows.get(detail?.id ?? "")?.name ?? detail?.id ?? "";
  const body = detail ? detailBody(detail, now) : [];
  return boxLines(`${bold(oneLine(name))} · details`, body, width, height, scroll, "Esc closes");
}
