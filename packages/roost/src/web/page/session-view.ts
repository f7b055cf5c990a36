import { isWaiting, rowLook, rowSays } from "../../hub/row-look.js";
import type { DescribeResult } from "../../protocol/describe.js";
import type { JobRow } from "../../protocol/rows.js";
import { DiffView } from "./diff-view.js";
import { button, el, fill } from "./dom.js";
import { choiceButtons } from "./fleet-list.js";
import { askIn, removeQuestion, respawnQuestion } from "./session-confirm.js";
import type { DiffAnswer, Refusal } from "./session-ops.js";

export interface SessionActions {
  back(): void;
  /** A reply to the question the view showed (`question`); the daemon holds it if the agent asks another by now. */
  reply(row: JobRow, text: string, question: string | null): Promise<boolean>;
  held(row: JobRow, what: "send" | "drop"): void;
  stop(row: JobRow): void;
  /** Its terminal in the page (a terminal agent's). */
  attach(row: JobRow): void;
  respawn(row: JobRow): void;
  /** `force`: even with work in its worktree; a refusal is answered for the view to ask again. */
  remove(row: JobRow, force: boolean): Promise<{ ok: true } | Refusal>;
  /** Its worktree's diff (a job dispatched with a worktree). */
  diff(row: JobRow): Promise<DiffAnswer>;
}

/**
 * One session's details: what it is and says, its question with its choices, a reply box, its held
 * reply and the concierge's suggestion, `/stop`, respawn and remove each behind a confirmation, its
 * last lines and events, for a terminal agent `Attach`, its terminal in the page, and for a job in a
 * worktree `Diff`, what it changed.
 * The reply box keeps the question it showed when it opened: if the row asks something else
 * meanwhile, the box says so, and a reply sent still names the question it showed.
 */
export class SessionView {
  readonly element = el("section", { class: "session" });
  private readonly facts = el("div", { class: "facts" });
  private readonly asks = el("div", { class: "asks" });
  private readonly changed = el("p", { class: "changed" });
  private readonly box = el("textarea", { class: "reply-text" });
  private readonly confirm = el("div", { class: "confirm" });
  private readonly lines = el("pre", { class: "last-lines" });
  private readonly events = el("ol", { class: "events" });
  private readonly answering = el("p", { class: "answering" });
  private readonly diffButton = button("Diff", () => this.diffView.show(this.row), "diff");
  private readonly diffView: DiffView;
  /** The question the reply box answers: the one shown when it opened or last sent. */
  private question: string | null;
  private row: JobRow;

  constructor(
    row: JobRow,
    private readonly actions: SessionActions,
  ) {
    this.row = row;
    this.question = row.question;
    this.diffView = new DiffView(
      () => actions.diff(this.row),
      () => this.diffView.hide(),
    );
    this.box.rows = 3;
    this.box.placeholder = "Reply…";
    this.box.setAttribute("aria-label", "reply");
    const send = button("Send", () => void this.send(), "send");
    this.element.append(
      el(
        "div",
        { class: "session-head" },
        button("‹ Back", () => actions.back(), "back"),
        this.facts,
      ),
      this.asks,
      el(
        "form",
        {
          class: "reply",
          on: {
            submit: (event) => {
              event.preventDefault();
              void this.send();
            },
          },
        },
        this.answering,
        this.changed,
        this.box,
        el(
          "div",
          { class: "reply-buttons" },
          send,
          row.kind === "terminal" && button("Attach", () => actions.attach(this.row), "attach"),
          button("Stop…", () => this.askStop(), "stop"),
        ),
      ),
      el(
        "div",
        { class: "job-buttons" },
        this.diffButton,
        button("Respawn…", () => this.askRespawn(), "respawn"),
        button("Remove…", () => this.askRemove(false), "remove"),
      ),
      this.confirm,
      this.diffView.element,
      el("h3", {}, "Last lines"),
      this.lines,
      el("h3", {}, "Events"),
      this.events,
    );
    this.box.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey) {
        event.preventDefault();
        void this.send();
      }
    });
    this.update(row);
  }

  get id(): string {
    return this.row.id;
  }

  update(row: JobRow): void {
    this.row = row;
    this.diffButton.hidden = !row.worktree;
    this.diffView.follow(row);
    const look = rowLook(row);
    fill(
      this.facts,
      el(
        "h2",
        {},
        el("span", { class: "glyph" }, look.glyph),
        " ",
        row.name,
        " ",
        el("span", { class: "label" }, look.label),
      ),
      el("p", { class: "says" }, rowSays(row)),
      fact("id", row.id),
      fact("profile", `${row.profile} (${row.kind})`),
      fact("folder", row.cwd),
      row.task && fact("task", row.task),
      row.error && fact("error", row.error),
      row.exitCode !== null && fact("exit code", String(row.exitCode)),
      row.pending > 0 && fact("replies not taken", String(row.pending)),
    );
    fill(
      this.asks,
      ...(isWaiting(row)
        ? [
            row.question && el("p", { class: "question" }, row.question),
            choiceButtons(
              row,
              row.question,
              (r, choice, question) => void this.actions.reply(r, choice, question),
            ),
          ]
        : []),
      row.held &&
        el(
          "div",
          { class: "held" },
          el("p", {}, "⏸ held: ", el("q", {}, row.held.text)),
          button("Send held reply", () => this.actions.held(this.row, "send")),
          button("Drop it", () => this.actions.held(this.row, "drop")),
        ),
      row.suggested &&
        el(
          "div",
          { class: "suggested" },
          el("p", {}, "✦ concierge suggests ", el("q", {}, row.suggested.text)),
          button(
            "Send it",
            () => void this.actions.reply(this.row, row.suggested?.text ?? "", this.row.question),
          ),
        ),
    );
    this.answering.replaceChildren(
      this.question === null ? "" : el("span", {}, "Answering: ", el("q", {}, this.question)),
    );
    this.changed.hidden = row.question === this.question;
    this.changed.replaceChildren(
      row.question === null
        ? "It asks nothing now: a reply sent is held. "
        : `It asks something else now: ${row.question} — a reply sent is held. `,
      button("Answer what it asks now", () => this.takeQuestion(), "take-question"),
    );
  }

  details(result: DescribeResult): void {
    this.lines.textContent = result.lastLines.join("\n");
    this.events.replaceChildren(
      ...result.events
        .slice(-20)
        .map((event) => el("li", {}, `${event.at.slice(11, 19)} ${event.kind} ${event.text}`)),
    );
  }

  private takeQuestion(): void {
    this.question = this.row.question;
    this.update(this.row);
  }

  private async send(): Promise<void> {
    const text = this.box.value;
    if (text.trim() === "") return;
    if (text.trim() === "/stop") return this.askStop();
    if (await this.actions.reply(this.row, text, this.question)) {
      this.box.value = "";
      this.takeQuestion();
    }
  }

  private askRespawn(): void {
    askIn(
      this.confirm,
      respawnQuestion(this.row),
      "Respawn it",
      () => this.actions.respawn(this.row),
      "Keep it",
    );
  }

  /** Work in its worktree refuses a removal: the daemon's words, and whether to remove it anyway. */
  private askRemove(force: boolean): void {
    const question = force ? `Remove ${this.row.name} anyway?` : removeQuestion(this.row);
    askIn(
      this.confirm,
      question,
      force ? "Remove anyway" : "Remove it",
      async () => {
        const answer = await this.actions.remove(this.row, force);
        if (!answer.ok && answer.code === "unsaved_work" && !force) {
          this.askRemove(true);
          this.confirm.prepend(el("p", { class: "refused" }, answer.error));
        }
      },
      "Keep it",
    );
  }

  private askStop(): void {
    this.confirm.replaceChildren(
      el("span", {}, `Stop ${this.row.name}?`),
      button(
        "Stop it",
        () => {
          this.confirm.replaceChildren();
          this.box.value = "";
          this.actions.stop(this.row);
        },
        "danger",
      ),
      button("Keep it", () => this.confirm.replaceChildren()),
    );
  }
}

function fact(name: string, value: string): HTMLParagraphElement {
  return el("p", { class: "fact" }, el("span", { class: "fact-name" }, `${name} `), value);
}
