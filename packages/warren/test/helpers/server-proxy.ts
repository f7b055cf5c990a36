import { connect, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP proxy in front of a test server, to make the network misbehave on cue: it records the
 * request lines that pass, can cut a connection instead of delivering a response, and can stop
 * passing bytes to the client (a reader that has stopped reading).
 */
export class TcpProxy {
  readonly requests: string[] = [];
  private dropPattern: RegExp | undefined;
  private pausedPattern: RegExp | undefined;
  /** Each connection's server side, with the request lines it has carried. */
  private readonly downstream = new Map<Socket, string[]>();
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(targetUrl: string): Promise<TcpProxy> {
    const target = new URL(targetUrl);
    let proxy!: TcpProxy;
    const server = createServer((client) => proxy.connection(client, target));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    proxy = new TcpProxy(server, `http://127.0.0.1:${port}`);
    return proxy;
  }

  /** The next request whose request line matches gets through, but its response never comes back. */
  dropResponseOf(pattern: RegExp): void {
    this.dropPattern = pattern;
  }

  /** Stops passing the server's bytes on connections that carried a request matching the pattern. */
  pauseDownstream(pattern: RegExp): void {
    this.pausedPattern = pattern;
    for (const [socket, lines] of this.downstream) if (lines.some((l) => pattern.test(l))) socket.pause();
  }

  resumeDownstream(): void {
    this.pausedPattern = undefined;
    for (const socket of this.downstream.keys()) socket.resume();
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private connection(client: Socket, target: URL): void {
    const upstream = connect(Number(target.port), target.hostname);
    this.sockets.add(client).add(upstream);
    const lines: string[] = [];
    this.downstream.set(upstream, lines);
    let cutNextResponse = false;
    client.on("data", (chunk: Buffer) => {
      for (const match of chunk.toString("latin1").matchAll(/^([A-Z]+ \S+) HTTP\/1\.1\r$/gm)) {
        const line = match[1]!;
        this.requests.push(line);
        lines.push(line);
        if (this.pausedPattern?.test(line)) upstream.pause();
        if (this.dropPattern?.test(line)) {
          this.dropPattern = undefined;
          cutNextResponse = true;
        }
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (cutNextResponse) {
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
      this.downstream.delete(upstream);
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  }
}
