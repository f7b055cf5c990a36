/**
 * `pi-roost/client`: the daemon's client and, beside it, a foreground session as a peer. The
 * CLI imports the client alone, so that a command starts without the peer's modules.
 */
export * from "./daemon-client.js";
// A foreground session as a peer takes roost's writer lock in the state folder: the user's side,
// so here rather than in pi-roost/agent, which needs node alone.
export { ForegroundPeer, type ForegroundPeerOptions } from "./foreground-peer.js";
