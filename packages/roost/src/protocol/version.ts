/** The highest agent protocol version this daemon and its clients speak. */
export const PROTOCOL_VERSION = 1;
export const DAEMON_NAME = "roost";
export const DAEMON_VERSION = "0.1.0";
/** What the daemon offers an agent in its `hello` answer. */
export const DAEMON_CAPABILITIES = ["replies", "steer", "agent-items", "peers", "spawn", "handback"] as const;
