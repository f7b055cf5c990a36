import { nameKey, type PeerInfo, type Relation, RoostError } from "../../protocol/index.js";
import type { Caller } from "../caller.js";
import type { DaemonState } from "../jobs/daemon-state.js";
import { isEnded, isLive, type Job } from "../jobs/job.js";
import { toRow } from "../jobs/job-row.js";
import type { ForegroundPeer, ForegroundPeers } from "./foreground.js";

/** A job's session key: the session file its agent reported (pi's), else its id. */
export function sessionKeyOf(job: Job): string {
  return job.report?.session ?? job.id;
}

/** The job for a session key: a live one before an ended one, the latest before an older one. */
export function jobForSession(state: DaemonState, session: string): Job | undefined {
  const byId = state.jobs.get(session);
  if (byId && sessionKeyOf(byId) === session) return byId;
  let best: Job | undefined;
  for (const job of state.jobs.values()) {
    if (sessionKeyOf(job) !== session) continue;
    if (
      !best ||
      (isLive(job) && !isLive(best)) ||
      (isLive(job) === isLive(best) && job.updatedAt > best.updatedAt)
    )
      best = job;
  }
  return best;
}

/**
 * A session in the tree: a job (its session key is its session file, or its id) or a connected foreground session (its
 * key is what it registered). `root` is its tree's root; `parentSession` who spawned it.
 */
export interface Session {
  peerId: string;
  name: string;
  session: string;
  root: string;
  parentSession: string | null;
  cwd: string;
  job: Job | null;
  foreground: ForegroundPeer | null;
}

export function jobSession(job: Job): Session {
  return {
    peerId: job.id,
    name: job.name,
    session: sessionKeyOf(job),
    root: job.rootSession ?? sessionKeyOf(job),
    parentSession: job.parentSession ?? null,
    cwd: job.cwd,
    job,
    foreground: null,
  };
}

export function foregroundSession(peer: ForegroundPeer): Session {
  return {
    peerId: peer.id,
    name: peer.name,
    session: peer.session,
    root: peer.session,
    parentSession: null,
    cwd: peer.cwd,
    job: null,
    foreground: peer,
  };
}

/** How `other` stands to `self`. */
export function relationOf(self: Session, other: Session): Relation {
  if (self.parentSession !== null && other.session === self.parentSession) return "parent";
  if (other.parentSession !== null && other.parentSession === self.session) return "child";
  if (self.parentSession !== null && self.parentSession === other.parentSession) return "sibling";
  if (self.root === other.root) return "tree";
  return "external";
}

/**
 * The session a connection speaks as: a foreground session it registered, or the job whose reports
 * it carries (live, after its report). Anything else is `unauthorized`.
 */
export function speakerOf(state: DaemonState, foreground: ForegroundPeers, caller: Caller): Session {
  const peer = foreground.byCaller(caller);
  if (peer) return foregroundSession(peer);
  const job = caller.role === "session" && caller.jobId !== null ? state.jobs.get(caller.jobId) : undefined;
  if (!job || job.connection !== caller)
    throw new RoostError(
      "unauthorized",
      "report first (a job's connection) or peer_register (a foreground session): the agent-to-agent ops speak for a session",
    );
  if (isEnded(job) || job.lifecycle === "stopped")
    throw new RoostError("unauthorized", `job ${job.id} has ended (${job.lifecycle})`);
  return jobSession(job);
}

/**
 * Every session there is, one per key: a connected foreground session, else the key's live job,
 * else its latest ended one.
 */
export function allSessions(state: DaemonState, foreground: ForegroundPeers): Session[] {
  const live = foreground.live().map(foregroundSession);
  const listed = new Set(live.map((s) => s.session));
  const jobs: Session[] = [];
  for (const job of state.jobs.values()) {
    const key = sessionKeyOf(job);
    if (listed.has(key)) continue;
    listed.add(key);
    jobs.push(jobSession(jobForSession(state, key) ?? job));
  }
  return [...live, ...jobs];
}

/** The peers a session may reach: its tree, and outside it only with external messages on. */
export function reachable(self: Session, sessions: Session[], external: boolean): Session[] {
  return sessions.filter(
    (s) => s.session !== self.session && (external || relationOf(self, s) !== "external"),
  );
}

/**
 * A target by exact id (any reachable peer), or by a name unique in the caller's tree (with
 * `namesAnywhere`, among all sessions: the concierge's).
 */
export function findTarget(
  self: Session,
  sessions: Session[],
  to: unknown,
  external: boolean,
  namesAnywhere = false,
): Session {
  if (typeof to !== "string" || to === "")
    throw new RoostError("bad_request", "to must be a peer's id or name");
  if (to === self.peerId || to === self.session) throw new RoostError("bad_request", "not to itself");
  const byId = sessions.find((s) => s.peerId === to);
  if (byId) {
    if (byId.session === self.session) throw new RoostError("bad_request", "not to itself");
    if (!external && relationOf(self, byId) === "external")
      throw new RoostError(
        "not_found",
        `${to} is outside your tree, and messages outside it are off (agentExternalMessages in the user's roost.json)`,
      );
    return byId;
  }
  // Names are looked up in the tree only: an external session is reached by its exact id.
  const named = sessions.filter(
    (s) =>
      nameKey(s.name) === nameKey(to) &&
      s.session !== self.session &&
      (namesAnywhere || relationOf(self, s) !== "external"),
  );
  if (named.length === 1) return named[0]!;
  if (named.length > 1)
    throw new RoostError(
      "bad_request",
      `${named.length} peers are named ${JSON.stringify(to)} (${named.map((s) => s.peerId).join(", ")}); use an id`,
    );
  throw new RoostError("not_found", `no peer ${JSON.stringify(to)} you may reach`);
}

/** A peer as `peers` lists it. */
export function peerInfo(self: Session, other: Session): PeerInfo {
  const base = {
    id: other.peerId,
    name: other.name,
    relation: relationOf(self, other),
    cwd: other.cwd,
  };
  if (!other.job) {
    return { ...base, kind: "foreground", state: "working", status: null, summary: null, question: null };
  }
  const row = toRow(other.job);
  return {
    ...base,
    kind: "job",
    state: other.job.lifecycle === "stopped" ? "ended" : row.state,
    status: row.status,
    summary: row.summary,
    question: row.question,
  };
}
