/**
 * Whether a job, started again once it has ended, resumes or runs anew: decided here alone, from
 * its profile and its kind, and carried on its row (`restart`) for the clients to say so.
 */
import type { AgentProfile } from "../../home/agent-profile.js";
import type { JobKind, Restart } from "../../protocol/index.js";

/**
 * A protocol agent resumes (its queued replies are delivered when it is back; pi keeps its session
 * file); a terminal agent's program starts over, so a reply would run a finished command again. A
 * profile's `resumes` says otherwise (a terminal agent started with `--continue`, a protocol agent
 * whose work is over once it ends).
 */
export function restartOf(kind: JobKind, profile: AgentProfile | undefined): Restart {
  return (profile?.resumes ?? kind === "protocol") ? "resumes" : "reruns";
}
