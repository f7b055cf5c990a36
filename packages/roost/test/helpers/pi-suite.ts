import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeModel, type FakeScript, fakeModelsJson, startFakeModel } from "../fixtures/fake-openai.js";
import { type Message, type RawConnection, startTestDaemon, type TestDaemon, waitFor } from "./daemon.js";

/** pi on a loaded machine takes seconds to start: waits on pi are this long. */
export const PI_WAIT_MS = 90_000;

export interface PiSuite {
  model: FakeModel;
  daemon: TestDaemon;
  hub: RawConnection;
  /** pi's own folder (models.json, settings.json, sessions). */
  piDir: string;
  /** The job's row, once `accept` takes it. */
  row(id: string, accept: (row: Message) => boolean, what: string): Promise<Message>;
  /** Dispatches the built-in pi profile with a task. */
  dispatch(task: string, extra?: Record<string, unknown>): Promise<{ id: string; name: string }>;
  close(): Promise<void>;
}

/**
 * A fake model, a pi folder pointing at it (offline), and a real daemon whose jobs inherit that
 * environment: the built-in `pi` profile then runs real pi on the fake model.
 */
export async function startPiSuite(script?: FakeScript, config: object = {}): Promise<PiSuite> {
  const model = await startFakeModel(script);
  const piDir = mkdtempSync(join(tmpdir(), "roost-pi-"));
  writeFileSync(join(piDir, "models.json"), fakeModelsJson(model.baseUrl));
  writeFileSync(
    join(piDir, "settings.json"),
    JSON.stringify({ defaultProvider: "fake", defaultModel: "fake-model", quietStartup: true }),
  );
  // The daemon, and so its jobs, inherit this process's environment.
  process.env.PI_CODING_AGENT_DIR = piDir;
  process.env.PI_OFFLINE = "1";
  const daemon = await startTestDaemon({ config });
  const hub = await daemon.connect();
  let last: Message | undefined;
  const row = (id: string, accept: (row: Message) => boolean, what: string) =>
    waitFor(
      what,
      async () => {
        const { result } = await suite.hub.request("list", {});
        last = (result.rows as Message[]).find((r) => r.id === id);
        return last && accept(last) ? last : undefined;
      },
      PI_WAIT_MS,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; the row: ${JSON.stringify(last)}`);
    });
  const suite: PiSuite = {
    model,
    daemon,
    hub,
    piDir,
    row,
    async dispatch(task, extra = {}) {
      const answer = await suite.hub.request("dispatch", { profile: "pi", task, cwd: piDir, ...extra });
      if (!answer.ok) throw new Error(`dispatch: ${answer.code}: ${answer.error}`);
      return answer.result as { id: string; name: string };
    },
    async close() {
      suite.hub.close();
      await daemon.stop();
      await model.close();
      rmSync(piDir, { recursive: true, force: true });
    },
  };
  return suite;
}
