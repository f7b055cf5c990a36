// The live feed: the run's spectator WebSocket, resumed from the last event applied. A lagged
// frame or a dropped connection reconnects with since=<cursor>, so nothing is missed or repeated.
(() => {
  const viewer = (globalThis.WarrenViewer ??= {});

  const RETRY_MS = [250, 500, 1000, 2000, 5000];

  class SpectatorFeed {
    /** `cursor()` is the last event applied; `onEvent` gets each frame, `onEnd` the normal close. */
    constructor(runId, { cursor, onEvent, onEnd }) {
      this.runId = runId;
      this.cursor = cursor;
      this.onEvent = onEvent;
      this.onEnd = onEnd;
      this.lagged = 0;
      this.reconnects = 0;
      this.failures = 0;
      this.connected = false;
      this.closed = false;
    }

    start() {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      const url = `${scheme}://${location.host}/v1/runs/${encodeURIComponent(this.runId)}/spectate?since=${this.cursor()}`;
      const socket = new WebSocket(url);
      this.socket = socket;
      socket.onopen = () => {
        this.connected = true;
        this.failures = 0;
      };
      socket.onmessage = (message) => {
        const frame = JSON.parse(message.data);
        // The lagged notice is not an event: it has no sim flag, only the last cursor sent.
        if (frame.kind === "lagged" && frame.sim === undefined) this.lagged++;
        else this.onEvent(frame);
      };
      socket.onclose = (close) => {
        this.connected = false;
        if (this.closed) return;
        if (close.code === 1000) {
          this.closed = true;
          this.onEnd();
          return;
        }
        this.reconnects++;
        // Lagged (1013): straight back; anything else: back off a little.
        const delay = close.code === 1013 ? 0 : RETRY_MS[Math.min(this.failures++, RETRY_MS.length - 1)];
        setTimeout(() => this.start(), delay);
      };
    }

    stop() {
      this.closed = true;
      this.socket?.close();
    }
  }

  viewer.SpectatorFeed = SpectatorFeed;
})();
