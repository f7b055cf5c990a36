import type { OpArgs, OpName, OpResult } from "../../protocol/index.js";
import type { BoardService } from "../board/board-service.js";
import type { Caller } from "../caller.js";
import type { ConciergeService } from "../concierge/concierge-service.js";
import type { ConversationReader } from "../conversations/conversation-reader.js";
import type { DaemonControl } from "../daemon-control.js";
import type { Dispatcher } from "../dispatch/dispatcher.js";
import type { EventsFeed } from "../feed/events-feed.js";
import type { AgentConnections } from "../jobs/agent-connections.js";
import type { Jobs } from "../jobs/jobs-service.js";
import type { Supervisor } from "../jobs/supervisor.js";
import type { Notifier } from "../notify/notifier.js";
import type { PeerService } from "../peers/peer-service.js";
import type { Replies } from "../replies/replies.js";
import type { Scheduler } from "../schedules/scheduler.js";
import type { Attachments } from "../terminal/attachments.js";
import type { TerminalRows } from "../terminal/terminal-rows.js";
import type { Transcripts } from "../transcripts/transcripts.js";
import type { Worktrees } from "../worktrees/worktrees.js";

/** What every op works with: the services built at daemon start (never the raw state or the store). */
export interface OpContext {
  jobs: Jobs;
  agents: AgentConnections;
  replies: Replies;
  supervisor: Supervisor;
  dispatcher: Dispatcher;
  feed: EventsFeed;
  board: BoardService;
  schedules: Scheduler;
  peers: PeerService;
  concierge: ConciergeService;
  terminalRows: TerminalRows;
  attachments: Attachments;
  daemon: DaemonControl;
  worktrees: Worktrees;
  notifier: Notifier;
  conversations: ConversationReader;
  transcripts: Transcripts;
}

/**
 * An op: a function of (services, caller, args), its arguments checked against the protocol's
 * schema before it runs; the server routes requests to it.
 */
export type OpHandler<Op extends OpName> = (
  ctx: OpContext,
  caller: Caller,
  args: OpArgs<Op>,
) => OpResult<Op> | Promise<OpResult<Op>>;

/** One handler for every op the protocol declares, each checked against its args and result. */
export type OpHandlers = { [Op in OpName]: OpHandler<Op> };
