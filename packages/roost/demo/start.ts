// `npm start`: a live fleet on a demo home inside the repository, in the hub. It writes the demo
// profiles, starts the daemon, dispatches one agent of each kind (once: request ids make a second
// run find the same jobs), and opens the hub. `npm start -- --stop` ends the demo's daemon and jobs.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { findAttach } from "../src/cli/hub.js";
import { DaemonClient } from "../src/client/daemon-client.js";
import { runHub } from "../src/hub/hub.js";

const roostPackage = fileURLToPath(new URL("..", import.meta.url));
const repository = join(roostPackage, "..", "..");
const home = join(repository, "demo-home");
const agents = join(roostPackage, "demo", "agents");
const tsx = fileURLToPath(import.meta.resolve("tsx"));

/** The demo's profiles, plus any the examples folder brings. */
function profiles(): Record<string, unknown> {
  const own = {
    "word-counter": {
      command: [process.execPath, "--import", tsx, join(agents, "word-counter.ts")],
      task: "type",
      protocol: true,
      env: { ROOST_DEMO_COUNT_AT_START: "1" },
    },
    planner: {
      command: ["python3", join(agents, "planner.py")],
      task: "type",
      protocol: true,
      env: { PYTHONPATH: join(roostPackage, "sdk", "python") },
    },
    deploy: { command: ["/bin/sh", join(agents, "deploy.sh")], task: "argv", protocol: false },
  };
  const examples = join(roostPackage, "examples", "roost.json");
  if (!existsSync(examples)) return own;
  try {
    const theirs = (JSON.parse(readFileSync(examples, "utf8")) as { agentProfiles?: Record<string, unknown> })
      .agentProfiles;
    return { ...theirs, ...own };
  } catch {
    return own;
  }
}

/** One of each kind: a TypeScript and a Python protocol agent, and a terminal agent. */
const FLEET = [
  { profile: "word-counter", name: "count-src", cwd: join(roostPackage, "src", "protocol") },
  { profile: "planner", name: "planner", cwd: roostPackage },
  { profile: "deploy", name: "deploy", cwd: repository },
];

async function main(): Promise<void> {
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "roost.json"), `${JSON.stringify({ agentProfiles: profiles() }, null, 2)}\n`);
  process.env.ROOST_HOME = home;
  const client = await DaemonClient.connect({ home, start: true });
  try {
    if (process.argv.includes("--stop")) {
      await client.call("shutdown", { all: true });
      process.stdout.write("The demo's daemon and its jobs are stopped.\n");
      return;
    }
    for (const job of FLEET) await client.call("dispatch", { ...job, requestId: `demo-${job.name}` });
  } finally {
    client.close();
  }
  await runHub({ home, startDaemon: true, attach: await findAttach() });
  process.stdout.write(
    "The demo fleet keeps running in the background: npm start opens the hub again, npm start -- --stop ends it.\n",
  );
}

await main();
