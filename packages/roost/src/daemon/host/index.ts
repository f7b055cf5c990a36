/**
 * The process host, for the daemon: `connectHost` and the interface it returns.
 *
 * In the state folder: `host.sock` (0600), `host.log`. In each job's folder: `terminal.log` and
 * `terminal.log.1`. The host ends by itself after `ROOST_HOST_IDLE_MS` (default 30000) with no
 * running job, no connection and no exit left unheard of.
 */
export type * from "./api.js";
export { type ConnectHostOptions, connectHost } from "./launch.js";
