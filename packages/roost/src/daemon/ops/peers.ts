import type { OpHandler } from "./context.js";

/** The agent-to-agent ops (M9, M43): each bound to the connection it comes on, never to an argument. */
export const peerRegister: OpHandler = ({ peers }, caller, args) => peers.register(caller, args);
export const peersOp: OpHandler = ({ peers }, caller) => peers.peers(caller);
/** Answered once the message is kept: `queued` and `delivered` are said of a committed message. */
export const send: OpHandler = async ({ peers, state }, caller, args) => {
  const result = peers.messaging.send(caller, args);
  await state.store.committed();
  return result;
};
export const spawn: OpHandler = ({ peers }, caller, args) => peers.tree.spawn(caller, args);
export const handback: OpHandler = ({ peers }, caller, args) => peers.reports.handback(caller, args);
export const watch: OpHandler = ({ peers }, caller, args) => peers.watches.watch(caller, args);
