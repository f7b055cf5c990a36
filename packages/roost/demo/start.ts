// `npm start`: a live fleet on a demo home inside the repository, in the hub. It writes the
// examples' profiles and the demo's into demo-home/roost.json, starts the daemon, dispatches each
// kind of agent once (request ids make a second run find the same jobs), and opens the hub.
// `npm start -- --stop` ends the demo's daemon and its jobs.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { attachFromHub } from "../src/cli/hub.js";
import { DaemonClient } from "../src/client/daemon-client.js";
import { runHub } from "../src/hub/hub.js";

const roostPackage = fileURLToPath(new URL("..", import.meta.url));
const repository = join(roostPackage, "..", "..");
const home = join(repository, "demo-home");
const agents = join(roostPackage, "demo", "agents");

/** The examples' profiles (a TypeScript and a Python protocol agent), with `@ROOT@` made this repository. */
function exampleProfiles(): Record<string, unknown> {
  const file = join(roostPackage, "examples", "roost.json");
  if (!existsSync(file)) return {};
  const text = readFileSync(file, "utf8").replaceAll("@ROOT@", repository.replace(/\/$/, ""));
  return (JSON.parse(text) as { agentProfiles?: Record<string, unknown> }).agentProfiles ?? {};
}

/** Where the demo's warren server listens. */
const WARREN_URL = "http://127.0.0.1:8417";

/** The demo's own: a Python agent that offers choices, and a shell script run as a terminal agent. */
const DEMO_PROFILES = {
  planner: {
    command: ["python3", join(agents, "planner.py")],
    task: "type",
    protocol: true,
    env: { PYTHONPATH: join(roostPackage, "sdk", "python") },
  },
  deploy: { command: ["/bin/sh", join(agents, "deploy.sh")], task: "argv", protocol: false },
  ...warrenProfiles(),
};

/**
 * warren beside the fleet: its server as a terminal job, and a person playing bridge_repair's
 * engineer from the hub (`warren play` makes the run, the others on their solution runners; the
 * row asks each observation and carries the viewer's URL). The repository's warren command is named
 * by its path: roost itself knows nothing of warren.
 */
function warrenProfiles(): Record<string, unknown> {
  const warren = join(repository, "packages", "warren", "bin", "warren.js");
  if (!existsSync(warren)) return {};
  const port = new URL(WARREN_URL).port;
  return {
    "warren-serve": {
      command: [process.execPath, warren, "serve", "--port", port],
      task: "argv",
      protocol: false,
    },
    // The task is `SERVER AGENT --scenario NAME ...`, split into words by the shell.
    "warren-play": {
      command: ["/bin/sh", "-c", 'exec "$0" "$1" play $2', process.execPath, warren],
      task: "argv",
      protocol: true,
    },
  };
}

/** One of each kind: protocol agents in TypeScript and Python, a terminal agent, and a warren run. */
const FLEET = [
  { profile: "word-count-ts", name: "count-ts", cwd: roostPackage, task: "src/protocol" },
  { profile: "word-count-py", name: "count-py", cwd: join(roostPackage, "sdk"), task: "python" },
  { profile: "planner", name: "planner", cwd: roostPackage },
  { profile: "deploy", name: "deploy", cwd: repository },
  { profile: "warren-serve", name: "warren-serve", cwd: repository },
  {
    profile: "warren-play",
    name: "bridge-engineer",
    cwd: repository,
    task: `${WARREN_URL} engineer-1 --scenario bridge_repair --seed 3 --deadline 900`,
  },
];

/** Dispatches the fleet (each job once: a second run finds the same jobs by their request ids). */
async function dispatchFleet(profiles: Record<string, unknown>): Promise<void> {
  const client = await DaemonClient.connect({ home, start: true });
  try {
    for (const job of FLEET) {
      if (!(job.profile in profiles)) continue; // The examples may name their profiles otherwise one day.
      const { id } = await client.call("dispatch", { ...job, requestId: `demo-${job.name}` });
      // Found again from an earlier run but stopped or ended since: started again.
      const row = (await client.call("list", {})).rows.find((r) => r.id === id);
      if (row && ["stopped", "done", "failed"].includes(row.lifecycle)) await client.call("respawn", { id });
    }
  } finally {
    client.close();
  }
}

async function stopDemo(): Promise<void> {
  const client = await DaemonClient.connect({ home, start: true });
  await client.call("shutdown", { all: true });
  client.close();
  process.stdout.write("The demo's daemon and its jobs are stopped.\n");
}

async function main(): Promise<void> {
  mkdirSync(home, { recursive: true });
  const profiles = { ...exampleProfiles(), ...DEMO_PROFILES };
  writeFileSync(join(home, "roost.json"), `${JSON.stringify({ agentProfiles: profiles }, null, 2)}\n`);
  process.env.ROOST_HOME = home;
  if (process.argv.includes("--stop")) return stopDemo();
  // The hub opens at once and shows the rows as the jobs start.
  let failed: unknown;
  const fleet = dispatchFleet(profiles).catch((error: unknown) => (failed = error));
  await runHub({ home, startDaemon: true, attach: attachFromHub(home) });
  await fleet;
  if (failed) process.stderr.write(`The demo fleet could not be dispatched: ${(failed as Error).message}\n`);
  process.stdout.write(
    "The demo fleet keeps running in the background: npm start opens the hub again, npm start -- --stop ends it.\n",
  );
}

await main();
