/**
 * How the spectator WebSocket closes, declared apart from the frames' schemas so that a browser
 * page can read them without bundling the schema library.
 */

/** The run ended and every event was sent. */
export const ENDED_CLOSE_CODE = 1000;
/** "Try again later": the reader lagged; reconnect with since=<cursor>. */
export const LAGGED_CLOSE_CODE = 1013;
