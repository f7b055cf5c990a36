/**
 * An agent roost runs: it counts the words in the files of its working folder and says so in its
 * row. Its task (and every reply after it) names what to count: a file or a folder under its
 * working folder, or anything else for the whole folder; `done` ends it.
 *
 * Outside this repository the import is `import { RoostAgent } from "pi-roost/agent";`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { RoostAgent } from "../src/client/agent.js";

const SKIPPED = new Set([".git", "node_modules", "dist", "__pycache__"]);
const MAX_FILE_BYTES = 1024 * 1024;

/** Words in each text file under `path` (binary and very large files left out). */
function countWords(path: string, counts = new Map<string, number>()): Map<string, number> {
  const stat = statSync(path);
  if (stat.isDirectory()) {
    for (const entry of readdirSync(path)) if (!SKIPPED.has(entry)) countWords(join(path, entry), counts);
  } else if (stat.isFile() && stat.size <= MAX_FILE_BYTES) {
    const bytes = readFileSync(path);
    if (!bytes.includes(0)) counts.set(path, bytes.toString("utf8").split(/\s+/).filter(Boolean).length);
  }
  return counts;
}

function describe(target: string): { summary: string; total: number } {
  const counts = countWords(target);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const [largest, most] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? ["nothing", 0];
  const where = relative(process.cwd(), target) || ".";
  return {
    summary: `${total} words in ${counts.size} files of ${where} (most: ${relative(process.cwd(), largest)}, ${most})`,
    total,
  };
}

function targetOf(text: string): string {
  const named = resolve(text.trim());
  const inside = !relative(process.cwd(), named).startsWith("..");
  try {
    if (inside && text.trim() !== "") statSync(named);
    return inside && text.trim() !== "" ? named : process.cwd();
  } catch {
    return process.cwd();
  }
}

let counted = 0;
const agent = RoostAgent.fromEnv({
  name: "word-count",
  version: "1.0",
  onReply: (reply) => {
    if (reply.text.trim() === "done") {
      agent!.report({ state: "done", status: "idle", summary: `finished: ${counted} words counted in all` });
      // Not awaited: this handler returns, and its reply is acked, before close's report is answered.
      void agent!.close().then(() => process.exit(0));
      return;
    }
    agent!.report({ state: "working", status: "busy", summary: `counting: ${reply.text}` });
    const { summary, total } = describe(targetOf(reply.text));
    counted += total;
    agent!.report({
      state: "blocked",
      status: "idle",
      waitingFor: "question",
      summary,
      question: "Name a file or folder to count, anything else for all of it, or done.",
    });
  },
});

if (agent) {
  agent.report({
    state: "blocked",
    status: "idle",
    waitingFor: "first-prompt",
    summary: "ready to count words",
  });
} else {
  // Not under roost: count once and say it here.
  console.log(describe(targetOf(process.argv[2] ?? "")).summary);
}
