import { DaemonClient, isDisconnected } from "../client/daemon-client.js";

/** How often `--follow` asks for what is new. */
export const FOLLOW_POLL_MS = 500;

/**
 * `--follow`: asks for what is new every FOLLOW_POLL_MS until interrupted. While the daemon is
 * gone (a restart, an upgrade) it waits for it and says so, as the hub does, then follows on.
 */
export async function followPolling(
  command: string,
  home: string,
  client: DaemonClient,
  next: (client: DaemonClient) => Promise<void>,
): Promise<never> {
  let c = client;
  let away = false;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
    try {
      if (away) {
        const back = await DaemonClient.connect({ home });
        c.close();
        c = back;
      }
      await next(c);
      if (away) process.stderr.write(`roost ${command}: the daemon is back; following on\n`);
      away = false;
    } catch (error) {
      if (!isDisconnected(error)) throw error;
      if (!away)
        process.stderr.write(`roost ${command}: the daemon is gone; waiting for it (Ctrl-C stops)\n`);
      away = true;
    }
  }
}
