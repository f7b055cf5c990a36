/**
 * One client of the host (the daemon, or an attach later): reads JSON-line requests, writes answers
 * and events, and is dropped when it leaves too much unread rather than let the host's memory grow.
 */
import type { Socket } from "node:net";
import { encodeLine, LineDecoder, LineTooLongError } from "../../protocol/framing.js";
import type { OutputWatcher } from "./host-job.js";
import {
  HOST_MAX_REQUEST_BYTES,
  HOST_MAX_UNREAD_BYTES,
  type HostEvent,
  type HostResponse,
} from "./protocol.js";

export class HostConnection implements OutputWatcher {
  private readonly decoder = new LineDecoder(HOST_MAX_REQUEST_BYTES);

  constructor(
    private readonly socket: Socket,
    onLine: (connection: HostConnection, line: string) => void,
    onClose: (connection: HostConnection) => void,
  ) {
    socket.on("data", (chunk) => {
      let lines: string[];
      try {
        lines = this.decoder.push(chunk);
      } catch (err) {
        if (!(err instanceof LineTooLongError)) throw err;
        this.drop(err.message);
        return;
      }
      for (const line of lines) if (line.trim() !== "") onLine(this, line);
    });
    socket.on("error", () => {});
    socket.on("close", () => onClose(this));
  }

  respond(response: HostResponse): void {
    this.sendLine(encodeLine(response));
  }

  event(event: HostEvent): void {
    this.sendLine(encodeLine(event));
  }

  output(id: string, data: string): void {
    this.event({ event: "output", id, data });
  }

  /** Sends a line encoded once for many connections. */
  sendLine(line: string): void {
    // Ended (the host is going): a late event, a job's exit heard after shutdown answered, would fail
    // the socket and throw away what it still holds, that answer among it.
    if (this.socket.destroyed || this.socket.writableEnded) return;
    if (this.socket.writableLength > HOST_MAX_UNREAD_BYTES) {
      this.drop(`more than ${HOST_MAX_UNREAD_BYTES} bytes left unread`);
      return;
    }
    // Everything sent in one turn of the event loop goes out in one write.
    if (this.socket.writableCorked === 0) {
      this.socket.cork();
      setImmediate(() => this.socket.uncork());
    }
    this.socket.write(line);
  }

  /** Ends the connection once what was written has gone out. */
  end(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.destroyed) return resolve();
      this.socket.once("close", () => resolve());
      this.socket.end();
    });
  }

  private drop(reason: string): void {
    console.error(`host: dropping a connection: ${reason}`);
    this.socket.destroy();
  }
}
