import { canonicalJson, sha256 } from "../engine/canonical-json.js";

/**
 * The command id of one MCP tool call: derived from what the call means, never from the MCP
 * request (a client's retry is a new request with a new id and progress token). The same tool with
 * the same args against the same observation of the same agent is the same command, so a retry
 * after a timeout or a cancellation is answered `duplicate` and takes effect once; the same move
 * made again after the next observation answers a later seq and is a new command.
 */
export function mcpCommandId(agentId: string, seq: number, tool: string, args: unknown): string {
  const hash = sha256(canonicalJson({ agent: agentId, seq, tool, args: args ?? {} }));
  return `mcp-${hash.replace(/^sha256:/, "").slice(0, 32)}`;
}
