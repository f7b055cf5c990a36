/** The protocol this server and its clients speak, named in the X-Warren-Protocol header. */
export const PROTOCOL_VERSION = "warren-agent/0";

/** The request and response header naming the protocol (lower case, as Node gives headers). */
export const PROTOCOL_HEADER = "x-warren-protocol";
