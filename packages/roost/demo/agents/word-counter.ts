// A protocol agent in TypeScript: counts the words in the files of a folder (its task, else its
// working folder), reporting as it goes, then asks whether to count again.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { RoostAgent } from "../../src/client/agent.js";

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
let folder = process.cwd();

function filesOf(dir: string): string[] {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

async function count(): Promise<void> {
  const files = filesOf(folder);
  let words = 0;
  for (const [i, file] of files.entries()) {
    words += readFileSync(file, "utf8").split(/\s+/).filter(Boolean).length;
    agent?.report({
      state: "working",
      status: "busy",
      tool: "read",
      summary: `counting: ${i + 1}/${files.length} files, ${words} words`,
    });
    await pause(400);
  }
  agent?.report({
    state: "blocked",
    status: "waiting",
    waitingFor: "question",
    summary: `${words} words in ${files.length} files of ${folder}`,
    question: "Count again (a folder name counts that folder)?",
    choices: ["yes", "no"],
  });
}

const agent = RoostAgent.fromEnv({
  name: "word-counter",
  version: "1.0",
  summaryIntervalMs: 250,
  onReply: async (reply) => {
    const text = reply.text.trim();
    if (text === "no") {
      agent?.report({ state: "done", status: "idle", summary: "finished counting" });
      await agent?.close();
      process.exit(0);
    }
    if (text !== "yes" && text !== "") folder = resolve(folder, text);
    await count().catch((error: Error) =>
      agent?.report({
        state: "blocked",
        waitingFor: "question",
        question: `${error.message}. Another folder?`,
        choices: ["yes", "no"],
      }),
    );
  },
});

if (!agent) {
  process.stderr.write("word-counter runs under roost (ROOST_JOB_ID is not set)\n");
  process.exit(1);
}
agent.report({ state: "working", status: "busy", summary: `starting in ${folder}` });
if (process.env.ROOST_DEMO_COUNT_AT_START === "1") void count();
