/** The process host, for the daemon: `connectHost` and the interface it returns. */
export type * from "./api.js";
export { type ConnectHostOptions, connectHost } from "./launch.js";
