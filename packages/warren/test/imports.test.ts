/**
 * The layers of `src/`, read from its imports: no file reaches itself through others, the engine
 * knows no wire, server, scenario or viewer, and the protocol reads nothing but the engine's types
 * and limits. The graph is read by roost's helper (one reader of imports for the repository).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

interface ImportEdge {
  to: string;
  dynamic: boolean;
}
type ImportGraph = Map<string, ImportEdge[]>;
interface LayerRule {
  from: string;
  to: string;
}
interface ImportGraphHelper {
  readImportGraph(root: string): ImportGraph;
  findCycles(graph: ImportGraph): { files: string[]; path: string[] }[];
  layerViolations(graph: ImportGraph, rules: LayerRule[]): string[];
}

// A computed specifier, so the compiler does not take roost's tests into warren's project.
const helperUrl = new URL("../../roost/test/helpers/import-graph.ts", import.meta.url);
const { readImportGraph, findCycles, layerViolations } = (await import(helperUrl.href)) as ImportGraphHelper;

const graph = readImportGraph(fileURLToPath(new URL("../src", import.meta.url)));

test("the source tree was read", () => {
  assert.ok(graph.size > 100, `${graph.size} files`);
  assert.ok(graph.get("server/run-registry.ts")?.some((edge) => edge.to === "server/hosted-run.ts"));
});

test("no import cycle inside src/", () => {
  assert.deepEqual(
    findCycles(graph).map((cycle) => cycle.path.join(" → ")),
    [],
  );
});

test("the engine imports no wire, server, scenario, viewer, sweep, trajectory or client", () => {
  const above = ["protocol", "server", "scenarios", "web", "sweep", "trajectory", "client", "cli", "play"];
  assert.deepEqual(
    layerViolations(
      graph,
      above.map((to) => ({ from: "engine", to })),
    ),
    [],
  );
});

test("the protocol reads nothing above the engine", () => {
  const above = ["server", "scenarios", "web", "sweep", "trajectory", "client", "cli", "play"];
  assert.deepEqual(
    layerViolations(
      graph,
      above.map((to) => ({ from: "protocol", to })),
    ),
    [],
  );
});

test("a trajectory is made from a run alone: no server, sweep, viewer, client or command line", () => {
  const above = ["server", "web", "sweep", "client", "cli", "play"];
  assert.deepEqual(
    layerViolations(
      graph,
      above.map((to) => ({ from: "trajectory", to })),
    ),
    [],
  );
});
