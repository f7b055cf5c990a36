/** The foreground sessions' writer locks: kept with the clients (they take them), read by the daemon. */
export * from "../client/writer-lock.js";
