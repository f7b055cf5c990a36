import { hostname, networkInterfaces } from "node:os";

/** Names every server answers as, at any port, whatever address it listens on. */
const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/** True for an address that only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function bracketed(address: string): string {
  return address.includes(":") && !address.startsWith("[") ? `[${address}]` : address;
}

/**
 * The `Host` values a server answers: its listening address, every interface's address and the
 * machine's name when it listens on all of them, each with its port; the loopback names with any
 * port (a tunnel or a local proxy in front forwards from its own; no other site can make a page
 * say them); and each `--allow-host` entry as given or with the port (a proxy in front sends its
 * own name, often without a port). Anything else is refused, so a page from another site reaching
 * the server through a name that resolves to it (DNS rebinding) gets nothing.
 */
export class AllowedHosts {
  private readonly exact = new Set<string>();

  constructor(listenHost: string, port: number, extraHosts: readonly string[] = []) {
    const extra = extraHosts.map(bracketed);
    const names = new Set([bracketed(listenHost)]);
    if (listenHost === "0.0.0.0" || listenHost === "::") {
      names.add(hostname());
      for (const list of Object.values(networkInterfaces())) {
        for (const info of list ?? []) names.add(bracketed(info.address));
      }
    }
    for (const name of [...names, ...extra]) {
      this.exact.add(`${name.toLowerCase()}:${port}`);
      // Browsers leave out the default port, in Host and Origin alike.
      if (port === 80) this.exact.add(name.toLowerCase());
    }
    for (const name of extra) this.exact.add(name.toLowerCase());
  }

  has(host: string): boolean {
    const lower = host.toLowerCase();
    if (this.exact.has(lower)) return true;
    const port = /:(\d+)$/.exec(lower);
    return port !== null && LOOPBACK_NAMES.includes(lower.slice(0, port.index));
  }
}
