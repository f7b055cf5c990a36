/**
 * Folders inside roost's state folder that more than the daemon knows of. Kept apart from the
 * schemas, so that what a client loads to find them stays small.
 */

/** The folder of the foreground sessions' writer locks. */
export const WRITER_LOCK_DIR = "session-locks";
