/**
 * The live feed: the run's spectator WebSocket, resumed from the last event applied. A lagged
 * frame or a dropped connection reconnects with since=<cursor>, so nothing is missed or repeated.
 */
import type { RunEvent } from "../../engine/events.js";
import type { LaggedFrame } from "../../protocol/spectator.js";
import { ENDED_CLOSE_CODE, LAGGED_CLOSE_CODE } from "../../protocol/spectator-close.js";

const RETRY_MS = [250, 500, 1000, 2000, 5000];

/** The lagged notice is not an event: it has no sim flag, only the last cursor sent. */
function isLagged(frame: RunEvent | LaggedFrame): frame is LaggedFrame {
  return frame.kind === "lagged" && !("sim" in frame);
}

export interface FeedHandlers {
  /** The last event applied. */
  cursor: () => number;
  onEvent: (event: RunEvent) => void;
  /** The run ended and every event came. */
  onEnd: () => void;
}

export class SpectatorFeed {
  lagged = 0;
  reconnects = 0;
  failures = 0;
  connected = false;
  closed = false;

  constructor(
    private readonly runId: string,
    private readonly handlers: FeedHandlers,
  ) {}

  start(): void {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}/v1/runs/${encodeURIComponent(this.runId)}/spectate?since=${this.handlers.cursor()}`;
    const socket = new WebSocket(url);
    socket.onopen = () => {
      this.connected = true;
      this.failures = 0;
    };
    socket.onmessage = (message: MessageEvent<string>) => {
      const frame = JSON.parse(message.data) as RunEvent | LaggedFrame;
      if (isLagged(frame)) this.lagged++;
      else this.handlers.onEvent(frame);
    };
    socket.onclose = (close) => {
      this.connected = false;
      if (this.closed) return;
      if (close.code === ENDED_CLOSE_CODE) {
        this.closed = true;
        this.handlers.onEnd();
        return;
      }
      this.reconnects++;
      // Lagged: straight back; anything else: back off a little.
      const delay =
        close.code === LAGGED_CLOSE_CODE ? 0 : RETRY_MS[Math.min(this.failures++, RETRY_MS.length - 1)];
      setTimeout(() => this.start(), delay);
    };
  }
}
