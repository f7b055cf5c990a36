import Fastify from "fastify";
import type { Envelope, Receipt } from "../src/protocol/index.js";

/** The floor a long-polling crowd is held to, listening: its URL, a run id for the agents' URLs, close(). */
export interface LongPollFloor {
  url: string;
  runId: string;
  close(): Promise<void>;
}

/**
 * A bare fastify server answering the requests of warren's long-polling crowd, at the same paths,
 * with nothing behind them: no engine, no checks, no leases, no validation. Each agent's poll is
 * held until every agent has sent its command for the round, then answered with that agent's
 * envelope (one warren issued, so as large) stamped like warren's: the round as seq and sim time,
 * the deadline from the moment it is answered. Each command gets an accepted receipt. What warren
 * costs beyond it is the engine and the server's own work.
 */
export async function startLongPollFloor(
  envelopes: ReadonlyMap<string, Envelope>,
  deadlineMs: number,
): Promise<LongPollFloor> {
  const app = Fastify();
  let round = 0;
  let commanded = 0;
  let waiting: { after: number; wake: () => void }[] = [];
  const envelopeOf = (agent: string): Envelope => ({
    ...envelopes.get(agent)!,
    observation_id: `${agent}#${round}`,
    seq: round,
    sim_time_ms: round * 1000,
    deadline_unix: (Date.now() + deadlineMs) / 1000,
  });
  app.get<{ Params: { agent: string }; Querystring: { after: string } }>(
    "/v1/runs/:run/agents/:agent/observations",
    (request) =>
      new Promise<Envelope>((resolve) => {
        const after = Number(request.query.after);
        const wake = () => resolve(envelopeOf(request.params.agent));
        if (round > after) wake();
        else waiting.push({ after, wake });
      }),
  );
  app.post<{ Body: { command_id: string; observation_id: string } }>(
    "/v1/runs/:run/agents/:agent/commands",
    async (request): Promise<Receipt> => {
      if (++commanded === envelopes.size) {
        commanded = 0;
        round++;
        const woken = waiting;
        waiting = [];
        for (const poll of woken) {
          if (round > poll.after) poll.wake();
          else waiting.push(poll);
        }
      }
      const { command_id, observation_id } = request.body;
      return {
        command_id,
        observation_id,
        status: "accepted",
        detail: "",
        outcome: "pending",
        outcome_reason: "",
      };
    },
  );
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, runId: "floor", close: () => app.close() };
}
