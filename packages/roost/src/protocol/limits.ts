/** The spec's limits, in one place. Each is enforced where it applies and tested at its edge. */
/** An attached terminal's size, from 2x2 to 1000x500. */
export const TERMINAL_SIZE = { minimum: 2, maxCols: 1000, maxRows: 500 } as const;

export const LIMITS = {
  /** A request line longer than this ends the connection. */
  maxLineBytes: 4 * 1024 * 1024,
  maxConnections: 1024,
  /** Requests in flight on one connection; past it the connection is not read. */
  maxInFlight: 256,
  /** Answers and events left unread by a client; past it the client is dropped. */
  maxUnreadBytes: 16 * 1024 * 1024,
  /** User replies waiting on one job. */
  maxPendingReplies: 50,
  /** Agent items (messages, reports, notices) waiting on one job. */
  maxPendingAgentItems: 20,
  /** Reply request ids remembered per job. */
  replyRequestIdsKept: 100,
  summary: 500,
  question: 2000,
  choices: 20,
  choice: 200,
  tool: 100,
  error: 1000,
  name: 200,
  model: 200,
  thinking: 100,
  /** A report's open fields (`usage`): levels of nesting, and characters of JSON. */
  openFieldDepth: 4,
  openFieldChars: 16 * 1024,
  /** A reply's text. */
  replyText: 100_000,
  /** An agent message's text. */
  message: 8000,
  handbackResult: 6000,
  /** A session's key (a session file's path), as a report or `peer_register` gives it. */
  session: 4096,
  eventsKept: 1000,
  /** A git ref as dispatch and merge take it (a base, a branch). */
  gitRef: 255,
  /** Jobs one `resume` names. */
  resumeJobs: 100,
  /** A diff's patch as `diff` answers it: cut past this (its JSON stays under a request line). */
  diffBytes: 1024 * 1024,
  /** Entries one `transcript` answer carries at most (its `limit`'s default and most). */
  transcriptEntries: 500,
  /** An entry's text: cut past this many characters (`cut` says how long it was). */
  transcriptText: 16_000,
  /** A `transcript` answer's entries as JSON: the next entry that would pass this waits for the next page. */
  transcriptBytes: 1024 * 1024,
} as const;

/** `requestId`: 1–64 of `A-Z a-z 0-9 _ . : -`. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
