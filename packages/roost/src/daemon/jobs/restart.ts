/**
 * Whether a job, started again once it has ended, resumes or runs anew: decided here alone, from
 * its profile and its kind, and carried on its row (`restart`) for the clients to say so.
 */
import type { AgentProfile } from "../../home/agent-profile.js";
import type { Restart } from "../../protocol/index.js";
import { canResume } from "../conversations/job-launch.js";
import type { JobRecord } from "../store/store.js";

/**
 * A protocol agent resumes (its queued replies are delivered when it is back; pi keeps its session
 * file), and so does a terminal agent whose program takes up its conversation (Claude Code, Codex,
 * a profile with `resume`); any other terminal agent's program starts over, so a reply would run a
 * finished command again. A profile's `resumes` says otherwise (a protocol agent whose work is over
 * once it ends).
 */
export function restartOf(
  record: Pick<JobRecord, "kind" | "conversation" | "resumeArgs">,
  profile: AgentProfile | undefined,
): Restart {
  return (profile?.resumes ?? (record.kind === "protocol" || canResume(record))) ? "resumes" : "reruns";
}
