import type { OpHandler } from "./context.js";

/** The agent-to-agent ops (M9, M43): each bound to the connection it comes on, never to an argument. */
export const peerRegister: OpHandler<"peer_register"> = ({ peers }, caller, args) =>
  peers.register(caller, args);
export const peersOp: OpHandler<"peers"> = ({ peers }, caller) => peers.peers(caller);
/** Answered once the message is kept (as every op that writes): `queued` and `delivered` are said of a committed message. */
export const send: OpHandler<"send"> = ({ peers }, caller, args) => peers.messaging.send(caller, args);
export const spawn: OpHandler<"spawn"> = ({ peers }, caller, args) => peers.tree.spawn(caller, args);
export const handback: OpHandler<"handback"> = ({ peers }, caller, args) =>
  peers.reports.handback(caller, args);
export const watch: OpHandler<"watch"> = ({ peers }, caller, args) => peers.watches.watch(caller, args);
