import type { ErrorCode } from "../../protocol/errors.js";
import type { JobRow } from "../../protocol/rows.js";
import { removalNotes } from "../../protocol/worktree-text.js";
import type { DiffResult } from "../../protocol/worktrees.js";
import type { Live } from "./live.js";
import type { Say } from "./say.js";

/** An op's answer as a session's view reads it. */
export type Refusal = { ok: false; code: ErrorCode | string; error: string };
export type DiffAnswer = { ok: true; result: DiffResult } | Refusal;

/**
 * A session's ops besides replies, each asked once (none carries a request id, so none is sent
 * again after a break: a second respawn would start it twice) and its outcome said in the notice.
 */
export function sessionOps(live: Live, say: Say) {
  return {
    async respawn(row: JobRow): Promise<void> {
      const answer = await live.call("respawn", { id: row.id });
      if (answer.ok) say(`Started ${row.name} again.`);
      else say(`Respawn ${row.name} refused: ${answer.code}: ${answer.error}`, "error");
    },

    /** `force`: even with work in its worktree (saved first, as `roost rm --force`). */
    async remove(row: JobRow, force: boolean): Promise<{ ok: true } | Refusal> {
      const answer = await live.call("rm", { id: row.id, force });
      if (answer.ok) {
        const notes = removalNotes(answer.result);
        say(`Removed ${row.name}${notes.length ? `; ${notes.join("; ")}` : ""}.`);
        return { ok: true };
      }
      // Work in its worktree: the view asks again whether to remove it anyway.
      const tone = answer.code === "unsaved_work" ? "warn" : "error";
      say(`Remove ${row.name} refused: ${answer.code}: ${answer.error}`, tone);
      return answer;
    },

    diff: (row: JobRow): Promise<DiffAnswer> => live.call("diff", { id: row.id }),
  };
}
