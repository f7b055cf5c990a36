import type { WorktreeMode, WorktreeSetup } from "./worktree-settings.js";

/** One way of running an agent, from `roost.json`'s `agentProfiles`. */
export interface AgentProfile {
  /** argv, or a string run by `/bin/sh -c`. */
  command: string[] | string;
  /** `type`: the task is the agent's first reply; `argv`: it is appended to the command. */
  task: "type" | "argv";
  /** Whether the agent speaks the roost agent protocol (else it is read from its terminal). */
  protocol: boolean;
  cwd?: string;
  env?: Record<string, string>;
  /** Regular expressions for screen lines that mean the agent waits for the user. */
  blockedPatterns?: string[];
  /** How its screen is read (`claude`, `codex`, `generic`); default: by its command's name. */
  reader?: string;
  /**
   * Whether the agent, started again once it has ended, takes up where it was, so that a reply
   * starts it without asking; default: protocol agents do, terminal agents run their command anew.
   */
  resumes?: boolean;
  /**
   * Arguments put after the program's name when a job starts again, so that the program takes up
   * its last conversation (`["--continue"]`); built in for Claude Code and Codex.
   */
  resume?: string[];
  /** Each job in its own git worktree (`auto`: when its folder is in a repository); default: roost.json's `worktree`. */
  worktree?: WorktreeMode;
  /** What a new worktree of this profile's jobs gets before the agent starts; default: roost.json's. */
  worktreeSetup?: WorktreeSetup;
}
