// A protocol agent for the hub's tests: writes every reply it takes to received.jsonl in its job
// folder and acts on a few texts: "ask" asks a question with choices, "say:TEXT" reports TEXT,
// anything else reports "got: TEXT". Plain JavaScript on the built SDK (the suites build first): the
// hub's tests start dozens of these, and tsx would cost each one a second of CPU.
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { RoostAgent } from "../../dist/client/agent.js";

const agent = RoostAgent.fromEnv({
  name: "hub-test-agent",
  version: "1.0",
  summaryIntervalMs: 0,
  onReply: async (reply) => {
    appendFileSync(
      join(agent.identity.dir, "received.jsonl"),
      `${JSON.stringify({ seq: reply.seq, text: reply.text, mode: reply.mode ?? null })}\n`,
    );
    if (reply.text === "ask")
      agent.report({
        state: "blocked",
        status: "waiting",
        waitingFor: "question",
        summary: "needs a decision",
        question: "Proceed with the plan?",
        choices: ["yes", "no", "later"],
      });
    else if (reply.text.startsWith("say:"))
      agent.report({ state: "working", status: "busy", summary: reply.text.slice(4) });
    else agent.report({ state: "working", status: "busy", summary: `got: ${reply.text}` });
  },
});

if (!agent) process.exit(2);
agent.report({ state: "working", status: "busy", summary: "ready" });
