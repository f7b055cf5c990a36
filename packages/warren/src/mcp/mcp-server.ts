import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { PROTOCOL_VERSION } from "../protocol/index.js";
import { LineTransport } from "./line-transport.js";
import type { McpSeat } from "./mcp-seat.js";
import { instructionsOf, toolsOf } from "./mcp-tools.js";

/**
 * Serves one claimed agent over MCP on stdin/stdout until the client closes; stdout carries only
 * the protocol. Resolves when the transport closes.
 */
export async function serveMcp(seat: McpSeat): Promise<void> {
  const briefing = await seat.start();
  const server = new Server(
    { name: "warren", version: PROTOCOL_VERSION },
    { capabilities: { tools: {} }, instructions: instructionsOf(briefing) },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolsOf(briefing) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const answer = await seat.call(request.params.name, args, () => !extra.signal.aborted);
    return {
      content: [{ type: "text", text: answer.text }],
      isError: answer.isError,
      ...(answer.structured ? { structuredContent: answer.structured } : {}),
    };
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  await server.connect(new LineTransport());
  await closed;
}
