import { loadProfiles } from "../../home/profiles.js";
import { PEER_LIMITS, RoostError, type SpawnArgs, type SpawnResult } from "../../protocol/index.js";
import type { Caller } from "../caller.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import { isLive } from "../jobs/job.js";
import type { PeerContext } from "./peer-context.js";
import { RateWindow } from "./rate-window.js";
import { jobForSession, type Session, sessionKeyOf, speakerOf } from "./sessions.js";

const SPAWN_NOTE =
  "Started. Its report arrives by itself when it finishes a run (done, a question, failed): do not poll for it.";

function limit(message: string): RoostError {
  return new RoostError("limit", message);
}

/** How deep a session sits below its root: a root is 0. */
function depthOf(self: Session, state: DaemonState): number {
  let depth = 0;
  let parent = self.parentSession;
  const seen = new Set<string>();
  while (parent !== null && !seen.has(parent)) {
    seen.add(parent);
    depth++;
    parent = jobForSession(state, parent)?.parentSession ?? null;
  }
  return depth;
}

/**
 * `spawn {task, name?, cwd?, profile?, model?, thinking?}`: a child job of the calling session,
 * with its parent and root kept on it. The child runs `profile`, else its parent's profile (a
 * foreground parent has none: it names one); in the parent's folder unless `cwd` says; `model` and
 * `thinking` (the parent job's as it last reported them, unless given) go to it as `ROOST_MODEL`
 * and `ROOST_THINKING`. The caps (depth, children per parent,
 * sessions per tree, spawned sessions overall, spawns per tree a minute) are the user's
 * roost.json's, each refused with `limit`.
 */
export class SpawnTree {
  private readonly spawns: RateWindow;

  constructor(private readonly pc: PeerContext) {
    this.spawns = new RateWindow(60_000, () => pc.now(), PEER_LIMITS.windowKeys);
  }

  async spawn(caller: Caller, args: SpawnArgs): Promise<SpawnResult> {
    const { state, feed } = this.pc;
    const self = speakerOf(state, this.pc.foreground, caller);
    const { task } = args;
    if (task.trim() === "") throw new RoostError("bad_request", "task must be a non-empty string");
    const profile = args.profile ?? self.job?.profile;
    if (!profile)
      throw new RoostError("bad_request", "profile must be given: a foreground session has none to pass on");
    // A child runs on its parent's current model and thinking level unless the spawn says.
    const model = args.model ?? self.job?.report?.model ?? undefined;
    const thinking = args.thinking ?? self.job?.report?.thinking ?? undefined;
    if (!loadProfiles(state.paths.config).has(profile))
      throw new RoostError("not_found", `no profile ${JSON.stringify(profile)} in ${state.paths.config}`);
    // The caps are checked once the host is there: dispatchJob then makes the job with no await
    // between (concurrent spawns cannot all pass the caps while the daemon is starting).
    if (!state.host) await state.waitForHost();
    state.requireHost();
    this.checkCaps(self);
    this.spawns.record(self.root);

    // A parent's worktree passes on: the child branches from the parent's branch.
    const parentWorktree = self.job?.worktree ?? null;
    const worktree = args.worktree ?? (parentWorktree ? true : undefined);
    const { id, name } = await this.pc.dispatcher.dispatch(
      {
        profile,
        task,
        cwd: args.cwd ?? self.cwd,
        name: args.name,
        ...(worktree !== undefined ? { worktree } : {}),
        ...(worktree && parentWorktree ? { base: parentWorktree.branch } : {}),
      },
      (record) => {
        record.parentSession = self.session;
        record.rootSession = self.root;
        record.parentPeer = self.peerId;
        record.parentRuns = 0;
        record.env = {
          ...record.env,
          ...(model !== undefined ? { ROOST_MODEL: model } : {}),
          ...(thinking !== undefined ? { ROOST_THINKING: thinking } : {}),
        };
      },
    );
    feed.add({
      kind: "spawn",
      why: "spawn",
      text: `${self.name} → ${name}`,
      who: self.name,
      whoId: self.job ? self.job.id : self.peerId,
      jobs: [...(self.job ? [self.job.id] : []), id],
    });
    return { id, name, note: SPAWN_NOTE };
  }

  private checkCaps(self: Session): void {
    const settings = this.pc.settings();
    const jobs = this.pc.state.jobs;
    const live = [...jobs.values()].filter(isLive);
    const depth = depthOf(self, this.pc.state) + 1;
    if (depth > settings.maxDepth)
      throw limit(`a child here would be ${depth} deep; agentMaxDepth is ${settings.maxDepth}`);
    const children = live.filter((j) => j.parentSession === self.session).length;
    if (children >= settings.maxChildren)
      throw limit(`${children} live children already; at most ${settings.maxChildren} per parent`);
    const inTree =
      live.filter((j) => (j.rootSession ?? sessionKeyOf(j)) === self.root).length +
      (jobForSession(this.pc.state, self.root) ? 0 : this.pc.foreground.bySession(self.root) ? 1 : 0);
    if (inTree >= settings.maxTreeSessions)
      throw limit(`${inTree} live sessions in this tree already; at most ${settings.maxTreeSessions}`);
    const spawned = live.filter((j) => j.parentSession).length;
    if (spawned >= settings.maxSpawned)
      throw limit(`${spawned} live spawned sessions already; at most ${settings.maxSpawned}`);
    const recent = this.spawns.count(self.root);
    if (recent >= settings.spawnsPerMinute)
      throw limit(`${recent} spawns in this tree in the last minute; at most ${settings.spawnsPerMinute}`);
  }
}
