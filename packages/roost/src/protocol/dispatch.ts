import { type Static, Type } from "typebox";
import { Maybe, RequestId, Text } from "./fields.js";
import { LIMITS } from "./limits.js";
import { WorktreeDispatchFields } from "./worktrees.js";

/** What `dispatch` starts a job from; a schedule's launch takes the same, without the request id. */
export const DispatchArgs = Type.Object({
  profile: Text(),
  task: Maybe(Type.String({ maxLength: LIMITS.replyText })),
  cwd: Maybe(Type.String()),
  name: Maybe(Type.String()),
  requestId: Maybe(RequestId),
  ...WorktreeDispatchFields,
});
export type DispatchArgs = Static<typeof DispatchArgs>;

/** The profiles a job can be dispatched from, by name, as roost.json has them now (built-in ones last). */
export interface ProfilesResult {
  profiles: string[];
}
