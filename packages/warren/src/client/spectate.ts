import { WebSocket } from "ws";
import {
  ENDED_CLOSE_CODE,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  type RunEvent,
  type SpectatorFrame,
} from "../protocol/index.js";
import { backoffMs, sleep } from "./backoff.js";

export interface SpectateOptions {
  /** The last cursor already seen (0: from the start). */
  since?: number;
  onEvent: (event: RunEvent) => void;
  /** Called when the server said we lagged; the stream then resumes from the cursor. */
  onLagged?: (cursor: number) => void;
  /** Reconnects after unexpected drops before giving up (default 8). */
  attempts?: number;
  signal?: AbortSignal;
}

interface StreamEnd {
  code: number;
  reason: string;
  lagged: boolean;
}

/**
 * Follows a run's spectator stream to the end, resuming with since=<cursor> after a lagged close
 * or a dropped connection, so every event is seen once and in order. Resolves with the last cursor.
 */
export async function spectate(baseUrl: string, runId: string, options: SpectateOptions): Promise<number> {
  let cursor = options.since ?? 0;
  let failures = 0;
  const wsBase = baseUrl.replace(/^http/, "ws").replace(/\/+$/, "");
  for (;;) {
    if (options.signal?.aborted) return cursor;
    const url = `${wsBase}/v1/runs/${encodeURIComponent(runId)}/spectate?since=${cursor}`;
    const end = await new Promise<StreamEnd>((resolve, reject) => {
      const socket = new WebSocket(url, { headers: { [PROTOCOL_HEADER]: PROTOCOL_VERSION } });
      let lagged = false;
      const onAbort = (): void => socket.close(1000);
      options.signal?.addEventListener("abort", onAbort, { once: true });
      socket.on("message", (data) => {
        const frame = JSON.parse(String(data)) as SpectatorFrame;
        if (frame.kind === "lagged") {
          lagged = true;
          options.onLagged?.(frame.cursor);
          return;
        }
        // A run event's kind is never "lagged": that name is the control frame's.
        const event = frame as RunEvent;
        if (event.cursor <= cursor) return;
        cursor = event.cursor;
        failures = 0;
        options.onEvent(event);
      });
      socket.on("unexpected-response", (request, response) => {
        request.destroy();
        socket.removeAllListeners("close");
        reject(new Error(`the spectator stream of ${runId} was refused: HTTP ${response.statusCode}`));
      });
      socket.on("error", () => {});
      socket.on("close", (code, reason) => {
        options.signal?.removeEventListener("abort", onAbort);
        resolve({ code, reason: String(reason), lagged });
      });
    });
    if (end.code === ENDED_CLOSE_CODE && !end.lagged) return cursor;
    if (!end.lagged) {
      if (++failures >= (options.attempts ?? 8)) {
        throw new Error(
          `the spectator stream of ${runId} keeps dropping (last close ${end.code} ${end.reason})`,
        );
      }
      await sleep(backoffMs(failures));
    }
  }
}
