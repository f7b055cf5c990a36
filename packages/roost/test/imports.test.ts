/**
 * The layers of `src/`, read from its imports: no file reaches itself through others, the clients,
 * the hub and the CLI stay off the daemon (only `roost daemon` loads it), the daemon stays off the
 * clients, and what every side reads (`home/`, `protocol/`) reads nothing above it.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { findCycles, type ImportEdge, layerViolations, readImportGraph } from "./helpers/import-graph.js";

const graph = readImportGraph(fileURLToPath(new URL("../src", import.meta.url)));
const cycles = findCycles(graph);

/** `roost daemon` loads the daemon, on demand: the one import of it outside it. */
const runsTheDaemon = (file: string, edge: ImportEdge) =>
  file === "cli/commands/daemon.ts" && edge.dynamic && edge.to === "daemon/start/run-foreground.ts";
/** `roost doctor` and `roost restore` work on the home where no daemon runs, with the store's own code. */
const HOME_TOOLS = ["daemon/doctor/doctor.ts", "daemon/store/backups.ts", "daemon/store/restore.ts"];
const worksOnTheHome = (file: string, edge: ImportEdge) =>
  file === "cli/commands/home.ts" && edge.dynamic && HOME_TOOLS.includes(edge.to);

test("the source tree was read", () => {
  assert.ok(graph.size > 100, `${graph.size} files`);
  assert.ok(
    graph.get("cli/commands/daemon.ts")?.some((edge) => runsTheDaemon("cli/commands/daemon.ts", edge)),
  );
});

test("no import cycle inside src/", () => {
  assert.deepEqual(
    cycles.map((cycle) => cycle.path.join(" → ")),
    [],
  );
});

test("what the ops use does not import the ops", () => {
  const below = [
    "jobs",
    "replies",
    "store",
    "feed",
    "terminal",
    "peers",
    "board",
    "schedules",
    "dispatch",
    "host",
  ];
  const rules = below.map((part) => ({ from: `daemon/${part}`, to: "daemon/ops" }));
  assert.deepEqual(layerViolations(graph, rules), []);
});

test("the ops work through the services: none imports the store", () => {
  assert.deepEqual(layerViolations(graph, [{ from: "daemon/ops", to: "daemon/store" }]), []);
});

test("the clients, the hub and the CLI do not import the daemon; the daemon not the clients nor the web server", () => {
  const rules = [
    { from: "client", to: "daemon" },
    { from: "hub", to: "daemon" },
    { from: "pi", to: "daemon" },
    {
      from: "cli",
      to: "daemon",
      allowed: (file: string, edge: ImportEdge) => runsTheDaemon(file, edge) || worksOnTheHome(file, edge),
    },
    { from: "daemon", to: "client" },
    // The daemon serves no HTTP: `roost web` is a client of it (the daemon may only run it).
    { from: "daemon", to: "web" },
  ];
  assert.deepEqual(layerViolations(graph, rules), []);
});

test("home/ reads only the protocol; the protocol reads nothing of roost", () => {
  const above = ["daemon", "client", "cli", "hub", "pi"];
  const rules = [
    ...above.map((to) => ({ from: "home", to })),
    ...[...above, "home"].map((to) => ({ from: "protocol", to })),
  ];
  assert.deepEqual(layerViolations(graph, rules), []);
});
