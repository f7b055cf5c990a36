// The floor: a minimal JSON-lines server on a unix socket, run as its own process like the daemon.
// `report`-like requests are answered at once; `reply {to}` also forwards a `deliver` event to the
// connection that registered as `to` (the floor for reply→deliver).
import { createServer, type Socket } from "node:net";
import { encodeLine, LIMITS, LineDecoder } from "../src/protocol/index.js";

const path = process.argv[2]!;
const byName = new Map<string, Socket>();

createServer((socket) => {
  const decoder = new LineDecoder(LIMITS.maxLineBytes);
  socket.on("error", () => {});
  socket.on("data", (chunk: Buffer) => {
    for (const line of decoder.push(chunk)) {
      const request = JSON.parse(line) as { id: number; op: string; args: Record<string, string> };
      if (request.op === "register") byName.set(request.args.name!, socket);
      if (request.op === "reply") {
        byName
          .get(request.args.to!)
          ?.write(encodeLine({ event: "deliver", id: request.args.to, seq: 1, text: "x" }));
      }
      socket.write(encodeLine({ id: request.id, ok: true, result: {} }));
    }
  });
}).listen(path, () => process.stdout.write("ready\n"));
