import type { AgentProfile } from "../../home/agent-profile.js";

/** The argv a profile runs, with the task appended when the profile takes it on the command line. */
export function profileArgv(profile: AgentProfile, task: string | null): string[] {
  const withTask = profile.task === "argv" && task !== null && task !== "";
  if (typeof profile.command === "string") {
    // `"$@"` hands the task to the shell command as one argument, never as shell text.
    return withTask
      ? ["/bin/sh", "-c", `${profile.command} "$@"`, "roost-job", task]
      : ["/bin/sh", "-c", profile.command];
  }
  return withTask ? [...profile.command, task] : [...profile.command];
}
