/**
 * A hub at 80×24 over a real daemon whose profiles are real agents that ask (Claude Code, Codex, a
 * `warren play` player), with what the hub's pick tests do to them: dispatch, Tab to a waiting row,
 * read a row from the daemon. Each agent's test file starts its own, so one agent's stall is
 * reported by the wait that stalled, inside that file's time.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import type { JobRow } from "../../src/protocol/rows.js";
import { type HubHarness, startHubHarness } from "./hub-harness.js";
import { projectFolder } from "./real-clis.js";
import { waitFor } from "./wait-for.js";

/** How long a real agent may take to start or answer on a loaded machine. */
export const START_MS = 90_000;
const TAB = "\t";

export interface ChoicesHub {
  h: HubHarness;
  /** The project folder the agents work in. */
  folder: string;
  dispatch(profile: string, task: string): Promise<string>;
  row(id: string): Promise<JobRow>;
  /** Tab until the waiting row named `name` is the selected one, and it is drawn so. */
  selectWaiting(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function startChoicesHub(agentProfiles: (folder: string) => object): Promise<ChoicesHub> {
  const folder = projectFolder();
  const h = await startHubHarness(80, 24, { config: { agentProfiles: agentProfiles(folder) } });
  const selectedName = () => h.hub.state.rows.get(h.hub.state.selectedId ?? "")?.name;
  return {
    h,
    folder,
    dispatch: async (profile, task) =>
      (await h.raw.request("dispatch", { profile, task, cwd: folder })).result.id as string,
    row: async (id) => ((await h.raw.request("list")).result.rows as JobRow[]).find((r) => r.id === id)!,
    selectWaiting: async (name) => {
      // One Tab taken at a time: the terminal hands keys to the hub a moment later, and the row may
      // reach the hub's list a moment after the daemon's.
      let tabbedAt = 0;
      await waitFor(`${name} selected by Tab`, async () => {
        if (selectedName() === name) return true;
        if (Date.now() - tabbedAt > 300) {
          tabbedAt = Date.now();
          h.terminal.type(TAB);
        }
        return undefined;
      });
      assert.equal(selectedName(), name);
      await h.waitForScreen(`${name} selected`, (s) => new RegExp(`› \\? ${name} `).test(s));
    },
    close: async () => {
      await h.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
