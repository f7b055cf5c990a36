import type { WebSocket } from "ws";
import { ENDED_CLOSE_CODE, LAGGED_CLOSE_CODE, type LaggedFrame, type RunEvent } from "../protocol/index.js";
import type { RunLog } from "./stored-run.js";

/**
 * One spectator of a run. It first catches up from `since` at the pace the reader takes the
 * frames (read from the run's log, so catching up costs no memory), then receives each new event
 * as it happens. A live subscriber whose unread bytes pass the limit gets a lagged frame naming
 * the last cursor it was sent, and is closed with 1013; it resumes with since=<cursor>. A `since`
 * older than the events the run still keeps gets a lagged frame at once, naming the cursor just
 * before the oldest kept, so resuming from it continues after the gap.
 */
export class SpectatorStream {
  private sent: number;
  private live = false;
  private waitingForDrain = false;
  private done = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly run: RunLog,
    private readonly socket: WebSocket,
    since: number,
    private readonly maxBufferedBytes: number,
  ) {
    this.sent = since;
    this.unsubscribe = run.onEvent((event) => this.onEvent(event));
    socket.on("close", () => this.stop());
    const kept = run.oldestRetainedEvent;
    if (since < kept - 1 && since < run.eventCursor) {
      this.sent = kept - 1;
      this.lagged(
        `events ${since + 1} to ${kept - 1} are no longer kept; since=${kept - 1} continues after them`,
      );
      return;
    }
    this.catchUp();
  }

  private onEvent(event: RunEvent): void {
    if (this.done) return;
    if (!this.live) {
      if (!this.waitingForDrain) this.catchUp();
      return;
    }
    this.send(event);
    if (this.socket.bufferedAmount > this.maxBufferedBytes) {
      this.lagged("you fell behind; reconnect with since=<cursor> to continue, nothing lost");
    } else this.closeIfEnded();
  }

  private catchUp(): void {
    while (!this.done && this.sent < this.run.eventCursor) {
      const [event] = this.run.events(this.sent, 1);
      if (!event) break;
      const drained = this.send(event);
      if (this.socket.bufferedAmount > this.maxBufferedBytes) {
        this.waitingForDrain = true;
        void drained.then(() => {
          this.waitingForDrain = false;
          this.catchUp();
        });
        return;
      }
    }
    this.live = true;
    this.closeIfEnded();
  }

  /** Sends one event; resolves when the socket has taken it. */
  private send(event: RunEvent): Promise<void> {
    this.sent = event.cursor;
    return new Promise((resolve) => this.socket.send(JSON.stringify(event), () => resolve()));
  }

  private closeIfEnded(): void {
    if (this.run.isEnded && this.sent >= this.run.eventCursor) {
      this.stop();
      this.socket.close(ENDED_CLOSE_CODE, `run ${this.run.status}`);
    }
  }

  private lagged(detail: string): void {
    const frame: LaggedFrame = { kind: "lagged", cursor: this.sent, detail };
    this.stop();
    this.socket.send(JSON.stringify(frame));
    this.socket.close(LAGGED_CLOSE_CODE, "lagged; reconnect with since=<cursor>");
  }

  private stop(): void {
    if (this.done) return;
    this.done = true;
    this.unsubscribe();
  }
}
