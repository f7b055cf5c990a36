/**
 * Reading a job's terminal to its very end. Two things would drop the last output of a program that
 * prints and exits while the host is busy:
 * - libuv takes a hang-up with a short read for the end of the stream, but a pty's reads are short
 *   (a few KiB) while more waits in the kernel; so at the end what is left is read here directly,
 *   from the descriptor, until the kernel says EIO (read out);
 * - node-pty destroys the terminal 200 ms after its process exits, unread or not (a fallback for
 *   terminals that never close); a terminal not read out by then is now given longer.
 */
import { readSync } from "node:fs";
import type { Socket } from "node:net";
import { StringDecoder } from "node:string_decoder";
import type { IPty } from "@lydell/node-pty";

const READ_OUT_PATIENCE_MS = 3000;

/** node-pty's private parts this relies on; without them, node-pty's own behaviour stays. */
interface PtyInternals {
  _socket?: Socket;
  _fd?: number;
}

export function readToTheEnd(pty: IPty, onData: (data: string) => void, resume: () => void): void {
  const { _socket: socket, _fd: fd } = pty as unknown as PtyInternals;
  if (!socket || typeof fd !== "number") return;
  // Runs before the stream's own end handling closes the descriptor.
  socket.on("end", () => readRest(fd, onData));
  const destroy = socket.destroy.bind(socket);
  let waiting = false;
  socket.destroy = ((error?: Error) => {
    // Only node-pty's timer destroys without an error before the end; anything else goes through.
    if (error || waiting || socket.readableEnded || socket.destroyed) return destroy(error);
    waiting = true;
    resume();
    const fallback = setTimeout(() => {
      readRest(fd, onData);
      destroy();
    }, READ_OUT_PATIENCE_MS);
    socket.once("close", () => clearTimeout(fallback));
    return socket;
  }) as Socket["destroy"];
}

/** Reads what the kernel still holds, until it has no more (EAGAIN) or the terminal is done (EIO). */
function readRest(fd: number, onData: (data: string) => void): void {
  const decoder = new StringDecoder("utf8");
  const buffer = Buffer.alloc(64 * 1024);
  for (;;) {
    let bytes: number;
    try {
      bytes = readSync(fd, buffer, 0, buffer.length, null);
    } catch {
      break;
    }
    if (bytes === 0) break;
    const text = decoder.write(buffer.subarray(0, bytes));
    if (text) onData(text);
  }
  const rest = decoder.end();
  if (rest) onData(rest);
}
