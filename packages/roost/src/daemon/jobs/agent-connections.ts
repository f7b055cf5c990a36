/**
 * The agents' side of a job: a connection's hello, its reports (the one that reports becomes the
 * job's connection, and its pending replies go there), its acks, and its going away.
 */
import {
  DAEMON_CAPABILITIES,
  DAEMON_NAME,
  DAEMON_VERSION,
  foldName,
  type HelloArgs,
  normalizeReport,
  type OpArgs,
  type OpResult,
  PROTOCOL_VERSION,
  RoostError,
  refuseReservedName,
} from "../../protocol/index.js";
import type { Caller, HelloInfo } from "../caller.js";
import { deliverEvent, type Job } from "./job.js";
import type { Jobs } from "./jobs-service.js";

const MAX_CAPABILITIES = 32;
const MAX_CAPABILITY_LENGTH = 64;

/** What is kept of a hello: names folded to one line, capabilities bounded. */
function keptHello({ protocol, agent, capabilities }: HelloArgs): HelloInfo {
  return {
    protocol,
    agent: { name: foldName(agent?.name ?? "") || "agent", version: foldName(agent?.version ?? "", 100) },
    capabilities: [
      ...new Set((capabilities ?? []).map((c) => foldName(c, MAX_CAPABILITY_LENGTH)).filter(Boolean)),
    ].slice(0, MAX_CAPABILITIES),
  };
}

function keepHello(job: Job, hello: HelloInfo): void {
  job.capabilities = hello.capabilities;
  job.agent = hello.agent;
}

/** The job's pending replies go (again) to its connection; agent items only to an agent that takes them. */
function resendPending(job: Job, caller: Caller, only: "all" | "items" = "all"): void {
  if (job.connection !== caller) return;
  for (const reply of job.pending) {
    if (reply.kind !== undefined ? !job.report?.agentItems : only === "items") continue;
    caller.send(deliverEvent(job, reply));
  }
}

export class AgentConnections {
  constructor(private readonly jobs: Jobs) {}

  hello(caller: Caller, args: OpArgs<"hello">): OpResult<"hello"> {
    const { jobs } = this;
    const info = keptHello(args);
    if (args.id !== undefined || args.token !== undefined) {
      if (args.id === undefined || args.token === undefined)
        throw new RoostError("bad_request", "id and token go together");
      const job = jobs.authorize({ id: args.id, token: args.token });
      keepHello(job, info);
      jobs.save(job);
    }
    caller.role = "session";
    caller.hello = info;
    if (caller.jobId !== null) {
      const job = jobs.get(caller.jobId);
      if (job) {
        keepHello(job, info);
        jobs.save(job);
      }
    }
    return {
      protocol: Math.min(PROTOCOL_VERSION, info.protocol),
      daemon: { name: DAEMON_NAME, version: DAEMON_VERSION },
      capabilities: [...DAEMON_CAPABILITIES],
    };
  }

  report(caller: Caller, args: OpArgs<"report">): OpResult<"report"> {
    const job = this.jobs.authorize(args);
    const snapshot = normalizeReport(args.report);
    // The concierge's job keeps its name; no other takes it.
    if (job.role === "concierge") snapshot.name = null;
    else if (snapshot.name !== null) refuseReservedName(snapshot.name, "report.name");
    caller.role = "session";
    if (caller.hello) keepHello(job, caller.hello);
    // An agent that now takes agent items gets those kept for it.
    const takesItemsNow = snapshot.agentItems && !job.report?.agentItems && job.connection === caller;
    job.report = snapshot;
    if (takesItemsNow) caller.later(() => resendPending(job, caller, "items"));
    if (snapshot.name !== null && snapshot.name !== job.reportedName) {
      job.name = snapshot.name;
      job.reportedName = snapshot.name;
    }
    if (job.connection !== caller) {
      // The connection a report comes through becomes the job's: every pending reply goes there.
      job.connection = caller;
      caller.jobId = job.id;
      caller.later(() => resendPending(job, caller));
    }
    this.jobs.saveSoon(job);
    return {};
  }

  ack(caller: Caller, args: OpArgs<"ack">): OpResult<"ack"> {
    const job = this.jobs.authorize(args);
    const { seq } = args;
    const exact = args.exact ?? false;
    caller.role = "session";
    this.jobs.acked(job, seq, exact);
    const before = job.pending.length;
    // A user reply's ack covers the user replies up to it; agent items are acked one by one.
    job.pending = job.pending.filter((r) => (exact ? r.seq !== seq : r.seq > seq || r.kind !== undefined));
    if (job.pending.length !== before) this.jobs.changed(job);
    return {};
  }

  /** A connection went away: the job it held is no longer connected. */
  released(caller: Caller): void {
    if (caller.jobId === null) return;
    const job = this.jobs.get(caller.jobId);
    if (job && job.connection === caller) {
      job.connection = null;
      this.jobs.changed(job);
    }
  }
}
