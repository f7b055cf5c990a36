import { FitAddon } from "@xterm/addon-fit";
import { Terminal } from "@xterm/xterm";
import type { AttachEvent, AttachResult } from "../../protocol/attach.js";
import { TERMINAL_SIZE } from "../../protocol/limits.js";
import type { JobRow } from "../../protocol/rows.js";
import { button, el } from "./dom.js";
import { KeyQueue } from "./key-queue.js";
import type { Live } from "./live.js";

/**
 * A session's terminal in the page, as `roost attach` has it: its screen as it is, then its output
 * live. While this page holds the keyboard its keys reach the program and its size follows the
 * window; otherwise it watches, and says so, until the keyboard passes to it. xterm.js draws the
 * screen's text as text: markup in it makes no element.
 */
export class TerminalView {
  readonly element = el("section", { class: "terminal-view" });
  private readonly note = el("span", { class: "terminal-note" });
  private readonly size = el("span", { class: "terminal-size", title: "columns × rows" });
  private readonly screen = el("div", { class: "terminal-screen" });
  private readonly terminal: Terminal;
  private readonly fit = new FitAddon();
  private readonly keys: KeyQueue;
  private readonly watchSize: ResizeObserver;
  private keyboard = false;
  /** Attached now: the daemon sends this page the job's output. */
  private live = false;
  /** The attachment was lost (the connection broke): attach again when it is back. */
  private stale = false;
  private fitPending = false;

  constructor(
    private readonly row: JobRow,
    private readonly link: Live,
    detach: () => void,
  ) {
    this.note.setAttribute("role", "status");
    this.element.append(
      el(
        "div",
        { class: "terminal-head" },
        button("Detach", detach, "detach"),
        el("h2", {}, row.name),
        this.note,
        this.size,
      ),
      this.screen,
    );
    this.terminal = new Terminal({
      fontFamily: "ui-monospace, monospace",
      fontSize: innerWidth < 700 ? 12 : 14,
      disableStdin: true,
      scrollback: 1000,
    });
    this.terminal.loadAddon(this.fit);
    this.keys = new KeyQueue(async (data) => {
      const answer = await this.link.call("attach-input", { id: this.row.id, data });
      if (!answer.ok) this.say(`Keys not taken: ${answer.code}: ${answer.error}`);
      return answer.ok;
    });
    this.terminal.onData((data) => {
      if (this.keyboard && this.live) this.keys.push(data);
    });
    this.terminal.onResize(({ cols, rows }) => {
      this.size.textContent = `${cols}×${rows}`;
      this.sendSize();
    });
    this.watchSize = new ResizeObserver(() => this.fitSoon());
  }

  get id(): string {
    return this.row.id;
  }

  /** Shows the terminal (the element must be on the page to be measured) and attaches. */
  open(): void {
    this.terminal.open(this.screen);
    this.fitToBox();
    this.size.textContent = `${this.terminal.cols}×${this.terminal.rows}`;
    this.watchSize.observe(this.screen);
    void this.attach();
  }

  /** The connection is back: attach again if the attachment was lost. */
  resume(): void {
    if (this.stale) void this.attach();
  }

  /** The connection broke: this page is attached no more. */
  lost(): void {
    if (!this.live) return;
    this.live = false;
    this.stale = true;
    this.setKeyboard(false);
    this.say("The connection broke; attaching again once it is back…");
  }

  receive(event: AttachEvent): void {
    if (event.id !== this.row.id || !this.live) return;
    if (event.event === "terminal-output") this.terminal.write(event.data);
    else if (event.event === "terminal-keyboard") {
      this.setKeyboard(true);
      this.sendSize();
      this.say("You have the keyboard now: keys typed here reach it.");
    } else {
      this.live = false;
      this.setKeyboard(false);
      if (event.event === "terminal-end")
        this.say(`${this.row.name} ended${event.exitCode === null ? "" : ` (exit code ${event.exitCode})`}.`);
      else this.say(`The daemon was shut down${event.all ? " with its sessions" : ""}.`);
    }
  }

  /** Leaves the terminal: the job keeps running. */
  leave(): void {
    if (this.live) void this.link.call("detach", { id: this.row.id });
    this.live = false;
    this.stale = false;
    this.watchSize.disconnect();
    this.terminal.dispose();
    this.element.remove();
  }

  private async attach(): Promise<void> {
    this.stale = false;
    this.say("Attaching…");
    const { cols, rows } = this.terminal;
    const answer = await this.link.call("attach", { id: this.row.id, cols, rows });
    if (!answer.ok) {
      this.stale = answer.code === "disconnected";
      this.say(`Attach refused: ${answer.code}: ${answer.error}`);
      return;
    }
    const result = answer.result as AttachResult;
    this.terminal.reset();
    this.terminal.write(result.screen);
    this.live = !result.ended;
    this.setKeyboard(result.keyboard);
    if (result.ended) {
      const how = result.exitCode === null ? "" : `, exit code ${result.exitCode}`;
      this.say(
        result.screen === ""
          ? `${this.row.name} is ${result.lifecycle}${how}; no screen of it was kept.`
          : `${this.row.name} is ${result.lifecycle}${how}: this is its last screen.`,
      );
    } else if (result.keyboard) {
      this.say("Keys typed here reach it; Detach leaves it running.");
      this.terminal.focus();
    } else
      this.say(
        "Watching: another attached terminal or page has the keyboard; it passes here when that one leaves.",
      );
  }

  private setKeyboard(keyboard: boolean): void {
    this.keyboard = keyboard;
    this.terminal.options.disableStdin = !keyboard;
    this.element.classList.toggle("watching", !keyboard);
  }

  /** The program takes this page's size while the page holds the keyboard. */
  private sendSize(): void {
    if (!this.keyboard || !this.live) return;
    const { cols, rows } = this.terminal;
    void this.link.call("attach-resize", { id: this.row.id, cols, rows });
  }

  /** Fits the terminal to its box once per frame, however many changes of size came before it. */
  private fitSoon(): void {
    if (this.fitPending) return;
    this.fitPending = true;
    requestAnimationFrame(() => {
      this.fitPending = false;
      if (this.terminal.element) this.fitToBox();
    });
  }

  /** As many columns and rows as its box holds, within the sizes the daemon takes. */
  private fitToBox(): void {
    const fits = this.fit.proposeDimensions();
    if (!fits) return;
    const within = (n: number, most: number) => Math.min(most, Math.max(TERMINAL_SIZE.minimum, n));
    const cols = within(fits.cols, TERMINAL_SIZE.maxCols);
    const rows = within(fits.rows, TERMINAL_SIZE.maxRows);
    if (cols !== this.terminal.cols || rows !== this.terminal.rows) this.terminal.resize(cols, rows);
  }

  private say(text: string): void {
    this.note.textContent = text;
  }
}
