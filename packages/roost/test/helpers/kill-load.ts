import { jobSecrets, type Message, type TestDaemon } from "./daemon.js";

/** A job's identity, for a test connection that speaks for it. */
export type Secret = { id: string; token: string };

/**
 * One request on a connection of its own (first reporting for `as`, when given); its answer, or
 * undefined when the daemon went away before answering (the client cannot know what was done).
 */
export async function once(
  daemon: TestDaemon,
  op: string,
  args: object,
  as?: Secret,
): Promise<Message | undefined> {
  const c = await daemon.connect().catch(() => undefined);
  if (!c) return undefined;
  const lost = c.closed.then(() => undefined);
  try {
    if (as) {
      const reported = await Promise.race([
        c.request("report", { ...as, report: { state: "working", summary: "under load" } }),
        lost,
      ]);
      if (!reported?.ok) return undefined;
    }
    return await Promise.race([c.request(op, args), lost]);
  } catch {
    return undefined;
  } finally {
    c.close();
  }
}

/** How long a client goes on sending a request again before it gives up. */
const RESEND_PATIENCE_MS = 120_000;

/** A request sent again, as it was, until it is answered: what a client does with a request id. */
export async function untilAnswered(
  daemon: TestDaemon,
  op: string,
  args: object,
  as?: Secret,
): Promise<Message> {
  const deadline = Date.now() + RESEND_PATIENCE_MS;
  for (;;) {
    const answer = await once(daemon, op, args, as);
    if (answer && answer.code !== "busy") return answer;
    if (Date.now() > deadline) throw new Error(`${op} was not answered in ${RESEND_PATIENCE_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The job's secret from the daemon's database. */
export async function secretOf(daemon: TestDaemon, id: string): Promise<Secret> {
  const secret = (await jobSecrets(daemon.stateDir)).find((s) => s.id === id);
  if (!secret) throw new Error(`no job ${id} in the database`);
  return { id: secret.id, token: secret.token };
}

/**
 * How often each text was taken (a peer item's by the line inside its envelope): a text taken under
 * two seqs was doubled; one sent again under its seq (after a reconnect) was not.
 */
export function timesTaken(received: { seq: number; text: string; kind?: string }[]): Map<string, number> {
  const seqs = new Map<string, Set<number>>();
  for (const r of received) {
    const text = r.kind ? (r.text.split("\n")[1] ?? r.text) : r.text;
    const kept = seqs.get(text) ?? new Set<number>();
    kept.add(r.seq);
    seqs.set(text, kept);
  }
  return new Map([...seqs].map(([text, set]) => [text, set.size]));
}
