import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** A line longer than this without its end is refused, as the SDK's own stdio transport does. */
const MAX_PENDING_CHARS = 10 * 1024 * 1024;

/**
 * MCP's stdio transport for the server: one JSON-RPC message a line on stdin, one a line on
 * stdout. Unlike the SDK's StdioServerTransport it hands each parsed line on without checking it
 * against the JSON-RPC message schema: the SDK's protocol layer checks every message's kind
 * against those schemas anyway, and its server each tool call against CallToolRequestSchema, so a
 * check here would be a third pass on the path of every call. Closes when stdin ends.
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private pending = "";
  private closed = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.input.setEncoding("utf8");
    this.input.on("data", this.read);
    this.input.on("error", this.failed);
    this.input.on("end", this.ended);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.read);
    this.input.off("error", this.failed);
    this.input.off("end", this.ended);
    if (this.input.listenerCount("data") === 0) this.input.pause();
    this.pending = "";
    this.onclose?.();
  }

  private readonly read = (chunk: string): void => {
    let text = this.pending + chunk;
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n")) {
      const line = text.slice(0, end).replace(/\r$/, "");
      text = text.slice(end + 1);
      if (line.trim() === "") continue;
      let message: JSONRPCMessage;
      try {
        message = JSON.parse(line);
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      this.onmessage?.(message);
    }
    if (text.length > MAX_PENDING_CHARS) {
      this.onerror?.(new Error(`a message longer than ${MAX_PENDING_CHARS} characters`));
      void this.close();
      return;
    }
    this.pending = text;
  };

  private readonly failed = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly ended = (): void => {
    void this.close();
  };
}
