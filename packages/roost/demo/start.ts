// `npm start`: a live fleet on a demo home inside the repository, in the hub. It writes the
// examples' profiles and the demo's into demo-home/roost.json, starts the daemon, dispatches each
// kind of agent once (request ids make a second run find the same jobs), and opens the hub.
// `npm start -- --stop` ends the demo's daemon and its jobs.
// ROOST_DEMO_HOME=DIR puts the demo home elsewhere, ROOST_DEMO_WARREN_PORT=N its warren server on
// another port (8417 by default): a second demo beside a person's own (the tests run one so).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { attachFromHub } from "../src/cli/hub.js";
import { DaemonClient, isDisconnected } from "../src/client/daemon-client.js";
import { statePaths } from "../src/home/paths.js";
import { runHub } from "../src/hub/hub.js";

const roostPackage = fileURLToPath(new URL("..", import.meta.url));
const repository = join(roostPackage, "..", "..");
const home = process.env.ROOST_DEMO_HOME || join(repository, "demo-home");
const agents = join(roostPackage, "demo", "agents");

/** The examples' profiles (a TypeScript and a Python protocol agent), with `@ROOT@` made this repository. */
function exampleProfiles(): Record<string, unknown> {
  const file = join(roostPackage, "examples", "roost.json");
  if (!existsSync(file)) return {};
  const text = readFileSync(file, "utf8").replaceAll("@ROOT@", repository.replace(/\/$/, ""));
  return (JSON.parse(text) as { agentProfiles?: Record<string, unknown> }).agentProfiles ?? {};
}

/** Where the demo's warren server listens. */
const WARREN_URL = `http://127.0.0.1:${process.env.ROOST_DEMO_WARREN_PORT || "8417"}`;

/** The demo's own: a Python agent that offers choices, and a shell script run as a terminal agent. */
function demoProfiles(): Record<string, unknown> {
  return {
    planner: {
      command: ["python3", join(agents, "planner.py")],
      task: "type",
      protocol: true,
      env: { PYTHONPATH: join(roostPackage, "sdk", "python") },
    },
    deploy: { command: ["/bin/sh", join(agents, "deploy.sh")], task: "argv", protocol: false },
    ...warrenProfiles(),
  };
}

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
      // Its runs kept in the demo home, beside the fleet, not in the person's own warren folder.
      command: [process.execPath, warren, "serve", "--port", port, "--data", join(home, "warren")],
      task: "argv",
      protocol: false,
    },
    // The task is `SERVER AGENT --scenario NAME ...`, split into words by the shell. Its run over,
    // the player has nothing to resume: a reply to it done starts it only when asked (`--start`).
    "warren-play": {
      command: ["/bin/sh", "-c", 'exec "$0" "$1" play $2', process.execPath, warren],
      task: "argv",
      protocol: true,
      resumes: false,
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

/** How often the fleet asks again for the daemon the hub is starting. */
const DAEMON_ASKED_EVERY_MS = 200;

/**
 * The daemon the hub starts, once it answers. A loaded machine can take longer to bring it up than
 * a start waits; the hub keeps trying until it answers, so the fleet does too, until the hub is left
 * (a fleet that gave up would leave the hub empty for good).
 */
async function daemonOnceUp(hubLeft: AbortSignal): Promise<DaemonClient> {
  for (;;) {
    try {
      return await DaemonClient.connect({ home });
    } catch (error) {
      if (!isDisconnected(error) || hubLeft.aborted) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, DAEMON_ASKED_EVERY_MS));
  }
}

/** Dispatches the fleet (each job once: a second run finds the same jobs by their request ids). */
async function dispatchFleet(profiles: Record<string, unknown>, hubLeft: AbortSignal): Promise<void> {
  const client = await daemonOnceUp(hubLeft);
  try {
    for (const job of FLEET) {
      if (!(job.profile in profiles)) continue; // The examples may name their profiles otherwise one day.
      const { id } = await client.call("dispatch", { ...job, requestId: `demo-${job.name}` });
      // Found again from an earlier run, stopped (`--stop`) or failed since: started again. One
      // done (the warren run played to its end) stays done.
      const row = (await client.call("list", {})).rows.find((r) => r.id === id);
      if (row && ["stopped", "failed"].includes(row.lifecycle)) await client.call("respawn", { id });
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
  const profiles = { ...exampleProfiles(), ...demoProfiles() };
  writeFileSync(join(home, "roost.json"), `${JSON.stringify({ agentProfiles: profiles }, null, 2)}\n`);
  process.env.ROOST_HOME = home;
  if (process.argv.includes("--stop")) return stopDemo();
  // The hub opens at once, starts the daemon (the one starter) and shows the rows as the jobs start.
  let fleetFailed: unknown;
  const hubLeft = new AbortController();
  const fleet = dispatchFleet(profiles, hubLeft.signal).catch((error: unknown) => (fleetFailed = error));
  await runHub({ home, startDaemon: true, attach: attachFromHub(home) });
  hubLeft.abort();
  await fleet;
  if (fleetFailed) failure("the demo fleet could not be dispatched", fleetFailed);
  else
    process.stdout.write(
      "The demo fleet keeps running in the background: npm start opens the hub again, npm start -- --stop ends it.\n",
    );
}

/** What went wrong, said to the person with what to do (not a stack). */
function failure(what: string, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(
    `npm start: ${what}: ${typeof code === "string" && !message.startsWith(code) ? `${code}: ` : ""}${message}\n` +
      "What to do: run `npm install` at the repository's root (it builds both packages), then `npm start` again;\n" +
      `\`npm start -- --stop\` ends a demo left half started; the daemon's log is ${statePaths(home).log}.\n`,
  );
  process.exitCode = 1;
}

await main().catch((error: unknown) => failure("the demo could not start", error));
