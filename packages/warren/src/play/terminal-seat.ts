import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import type { Question } from "./question.js";
import type { Seat, SeatReply } from "./seat.js";

/**
 * A seat on the terminal: each observation printed with its numbered choices, each line typed a
 * reply. Nothing is kept across restarts, so each line gets a fresh command id.
 */
export class TerminalSeat implements Seat {
  readonly recordPath = undefined;
  private readonly lines: string[] = [];
  private handling = false;
  private handler: ((reply: SeatReply) => Promise<void>) | undefined;
  private readonly session = randomUUID().slice(0, 8);
  private count = 0;
  private readonly input;

  constructor(
    private readonly write: (text: string) => void,
    input: NodeJS.ReadableStream = process.stdin,
  ) {
    this.input = createInterface({ input, terminal: false });
    this.input.on("line", (line) => {
      this.lines.push(line);
      void this.pump();
    });
  }

  ask(question: Question): void {
    const choices = question.choices.map((c, i) => `  ${i + 1}. ${c}`).join("\n");
    this.write(`\n${question.question}\n${choices}\n> `);
  }

  tell(summary: string): void {
    this.write(`${summary}\n`);
  }

  listen(handle: (reply: SeatReply) => Promise<void>): void {
    this.handler = handle;
    void this.pump();
  }

  async end(summary: string): Promise<void> {
    this.write(`${summary}\n`);
    this.input.close();
  }

  private async pump(): Promise<void> {
    if (this.handling || !this.handler) return;
    this.handling = true;
    for (let line = this.lines.shift(); line !== undefined; line = this.lines.shift()) {
      if (line.trim() === "") continue;
      await this.handler({ text: line, commandId: `term-${this.session}-${++this.count}` });
    }
    this.handling = false;
  }
}
