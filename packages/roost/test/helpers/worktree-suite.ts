/** A suite's daemon with worktree profiles and a repository of its own, and how its tests ask it. */
import assert from "node:assert/strict";
import { after, before } from "node:test";
import type { JobRow } from "../../src/protocol/index.js";
import { type RawConnection, startTestDaemon, type TestDaemon } from "./daemon.js";
import { makeRepository, WORKTREE_PROFILES } from "./git-repo.js";
import { waitFor } from "./wait-for.js";

export interface WorktreeSuite {
  readonly daemon: TestDaemon;
  /** The repository's main checkout, on `main`, with shared.txt and other.txt committed. */
  readonly repo: string;
  rows(): Promise<JobRow[]>;
  rowNamed(name: string, until: (row: JobRow) => boolean, what: string): Promise<JobRow>;
  // biome-ignore lint/suspicious/noExplicitAny: the op's result, as the test reads it
  call(op: string, args?: object): Promise<any>;
  /** The op's refusal text, asserting its code. */
  refusedOp(code: string, op: string, args: object): Promise<string>;
  // biome-ignore lint/suspicious/noExplicitAny: what the command printed
  roostJson(...args: string[]): Promise<any>;
  /** The command's stderr, asserting it failed with `code`. */
  refused(code: string, ...args: string[]): Promise<string>;
}

export function worktreeSuite(): WorktreeSuite {
  let daemon: TestDaemon;
  let repo = "";
  let connection: RawConnection | null = null;
  before(async () => {
    daemon = await startTestDaemon({ config: { agentProfiles: WORKTREE_PROFILES } });
    repo = makeRepository({ "shared.txt": "base\n", "other.txt": "other\n" }, daemon.home);
  });
  after(async () => {
    connection?.close();
    await daemon.stop();
  });
  /** One connection for the suite, made anew after a restart closed it. */
  const request = async (op: string, args: object) => {
    for (let attempt = 0; ; attempt++) {
      try {
        connection ??= await daemon.connect();
        return await connection.request(op, args);
      } catch (err) {
        connection?.close();
        connection = null;
        // Only a connection a restart closed is tried again: a slow answer is not asked twice.
        if (attempt > 0 || /no response/.test((err as Error).message)) throw err;
      }
    }
  };
  const call = async (op: string, args: object = {}) => {
    const answer = await request(op, args);
    assert.equal(answer.ok, true, `${op}: ${answer.code}: ${answer.error}`);
    return answer.result;
  };
  const rows = async (): Promise<JobRow[]> => (await call("list")).rows;
  return {
    get daemon() {
      return daemon;
    },
    get repo() {
      return repo;
    },
    rows,
    rowNamed: (name, until, what) =>
      waitFor(what, async () => {
        const row = (await rows()).find((r) => r.name === name);
        return row && until(row) ? row : undefined;
      }),
    call,
    async refusedOp(code, op, args) {
      const answer = await request(op, args);
      assert.equal(answer.ok, false, `${op} should be refused`);
      assert.equal(answer.code, code, `${op}: ${answer.code}: ${answer.error}`);
      return answer.error as string;
    },
    async roostJson(...args) {
      const out = await daemon.cli([...args, "--json"]);
      assert.equal(out.code, 0, `roost ${args.join(" ")}: ${out.stderr}`);
      return JSON.parse(out.stdout);
    },
    async refused(code, ...args) {
      const out = await daemon.cli(args);
      assert.notEqual(out.code, 0, `roost ${args.join(" ")} should fail: ${out.stdout}`);
      assert.match(out.stderr, new RegExp(`: ${code}: `), `roost ${args.join(" ")}: ${out.stderr}`);
      return out.stderr;
    },
  };
}
