import { CONFIGURE_MODEL_LINE } from "../../protocol/concierge.js";
import type { WebFeedMessage } from "../../protocol/web-feeds.js";
import { clockTime } from "./clock-time.js";
import { el, fill } from "./dom.js";
import type { Live } from "./live.js";
import type { Say } from "./say.js";

type ConciergeNews = Extract<WebFeedMessage, { type: "concierge" }>;

/**
 * The concierge's line, as the hub's: on or off, what it said last (what it needs the person for
 * stands out), its policy; failed or without a model, that and what to do. While it runs, a box to
 * ask it something (as the hub's `c`): the question goes to it as the person's reply, and its answer
 * comes back on this line.
 */
export class ConciergeLine {
  readonly element = el("div", { class: "concierge" });
  private readonly line = el("p", { class: "concierge-line" });
  private readonly question = el("input", { class: "concierge-question" });
  private readonly form: HTMLFormElement;

  constructor(
    private readonly live: Live,
    private readonly say: Say,
  ) {
    this.question.placeholder = "Ask the concierge…";
    this.question.setAttribute("aria-label", "ask the concierge");
    const ask = el("button", { class: "concierge-ask" }, "Ask");
    ask.type = "submit";
    this.form = el(
      "form",
      {
        class: "concierge-form",
        on: {
          submit: (event) => {
            event.preventDefault();
            void this.ask();
          },
        },
      },
      this.question,
      ask,
    );
    this.element.append(this.line, this.form);
    this.element.hidden = true;
  }

  update({ status, said }: ConciergeNews): void {
    // A daemon without a concierge: no line.
    this.element.hidden = status === null;
    if (status === null) return;
    const runs = status.running && status.failed === null;
    this.element.className = `concierge${status.failed !== null ? " failed" : said?.kind === "need" && runs ? " needs" : ""}`;
    this.form.hidden = !runs;
    if (status.failed !== null) {
      fill(this.line, `✗ concierge failed: ${status.failed} · roost concierge on starts it again`);
      return;
    }
    if (!status.running && status.unavailable !== null) {
      fill(this.line, `◇ concierge off · cannot run without a model: ${CONFIGURE_MODEL_LINE}`);
      return;
    }
    fill(
      this.line,
      el("span", { class: "concierge-head" }, runs ? "◆ concierge" : "◇ concierge off"),
      said
        ? el(
            "span",
            { class: "concierge-said" },
            ` ${said.kind === "need" ? "needs you:" : `${said.kind}:`} ${said.text} (${clockTime(said.at)})`,
          )
        : el(
            "span",
            { class: "concierge-policy" },
            runs ? " · ask it below" : " · roost concierge on starts it",
          ),
      el(
        "span",
        { class: "concierge-policy" },
        ` · answers ${status.policy.answer} · acts ${status.policy.act ? "on" : "off"}`,
      ),
    );
  }

  private async ask(): Promise<void> {
    const text = this.question.value.trim();
    if (text === "") return;
    const answer = await this.live.call("concierge-ask", { text });
    if (!answer.ok) return this.say(`Ask the concierge refused: ${answer.code}: ${answer.error}`, "error");
    this.question.value = "";
    this.say("Asked the concierge: its answer shows on its line.");
  }
}
