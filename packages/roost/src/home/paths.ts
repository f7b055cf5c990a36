import { homedir } from "node:os";
import { join } from "node:path";

/** Where everything of one roost home lives. */
export interface StatePaths {
  /** `$ROOST_HOME`: the user's `roost.json` and the state folder. */
  home: string;
  /** The user's profiles. */
  config: string;
  /** `$ROOST_HOME/roost`: owner-only. */
  stateDir: string;
  socket: string;
  db: string;
  pidFile: string;
  log: string;
  jobsDir: string;
}

/** `ROOST_HOME`, or `~/.pi/agent`. */
export function roostHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.ROOST_HOME && env.ROOST_HOME !== "" ? env.ROOST_HOME : join(homedir(), ".pi", "agent");
}

export function statePaths(home: string = roostHome()): StatePaths {
  const stateDir = join(home, "roost");
  return {
    home,
    config: join(home, "roost.json"),
    stateDir,
    socket: join(stateDir, "daemon.sock"),
    db: join(stateDir, "roost.db"),
    pidFile: join(stateDir, "daemon.pid"),
    log: join(stateDir, "daemon.log"),
    jobsDir: join(stateDir, "jobs"),
  };
}
