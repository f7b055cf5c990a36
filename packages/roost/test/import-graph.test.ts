import assert from "node:assert/strict";
import { test } from "node:test";
import {
  findCycles,
  type ImportGraph,
  importSpecifiers,
  layerViolations,
  resolveSpecifier,
} from "./helpers/import-graph.js";

/** A graph from `file: imported, imported` lines (`*` marks an `import(...)`). */
function graphOf(...lines: string[]): ImportGraph {
  return new Map(
    lines.map((line) => {
      const [file, imports = ""] = line.split(":");
      const edges = imports
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name !== "")
        .map((name) => ({ to: name.replace("*", ""), dynamic: name.startsWith("*") }));
      return [file!.trim(), edges];
    }),
  );
}

test("the specifiers of static imports, re-exports, type imports and import() calls", () => {
  const source = `
    import { a } from "./a.js";
    import type { B } from "../b.js";
    import "./side-effect.js";
    export { c } from "./c.js";
    export * from "./d.js";
    import { readFileSync } from "node:fs";
    const later = await import("./e.js");
    // import { not } from "./commented.js";
    const text = 'import { no } from "./in-a-string.js"';
  `;
  assert.deepEqual(importSpecifiers(source), [
    { specifier: "./a.js", dynamic: false },
    { specifier: "../b.js", dynamic: false },
    { specifier: "./side-effect.js", dynamic: false },
    { specifier: "./c.js", dynamic: false },
    { specifier: "./d.js", dynamic: false },
    { specifier: "node:fs", dynamic: false },
    { specifier: "./e.js", dynamic: true },
  ]);
});

test("a specifier resolves to the .ts beside the .js it names; a package to nothing", () => {
  assert.equal(resolveSpecifier("daemon/ops/jobs.ts", "../store/store.js"), "daemon/store/store.ts");
  assert.equal(resolveSpecifier("cli/main.ts", "./format.js"), "cli/format.ts");
  assert.equal(resolveSpecifier("cli/main.ts", "../../outside.js"), "../outside.ts");
  assert.equal(resolveSpecifier("cli/main.ts", "node:fs"), null);
  assert.equal(resolveSpecifier("cli/main.ts", "@mariozechner/pi-tui"), null);
});

test("no cycle in a tree of imports, even where two files import the same one", () => {
  assert.deepEqual(findCycles(graphOf("a: b, c", "b: d", "c: d", "d:")), []);
});

test("a cycle is named by its files and one path around it, from its first file by name", () => {
  assert.deepEqual(findCycles(graphOf("x: b", "b: c", "c: a", "a: b")), [
    { files: ["a", "b", "c"], path: ["a", "b", "c", "a"] },
  ]);
});

test("the shortest way around is given when a group of files has several", () => {
  // a → b → c → d → a, and the shortcut c → a: one group of four files.
  assert.deepEqual(findCycles(graphOf("a: b", "b: c", "c: d, a", "d: a")), [
    { files: ["a", "b", "c", "d"], path: ["a", "b", "c", "a"] },
  ]);
});

test("separate cycles are each named, and a file importing itself is one", () => {
  const cycles = findCycles(graphOf("p: q", "q: p", "s: s", "t: p"));
  assert.deepEqual(
    cycles.map((cycle) => cycle.path),
    [
      ["p", "q", "p"],
      ["s", "s"],
    ],
  );
});

test("a dynamic import closes a cycle as a static one does", () => {
  assert.deepEqual(
    findCycles(graphOf("a: b", "b: *a")).map((cycle) => cycle.path),
    [["a", "b", "a"]],
  );
});

test("a layer rule names each import that breaks it, bar the one it allows", () => {
  const graph = graphOf(
    "client/a.ts: daemon/x.ts, home/p.ts",
    "cli/run.ts: *daemon/start.ts",
    "cli/other.ts: daemon/start.ts",
    "daemon/x.ts: home/p.ts",
  );
  const rules = [
    { from: "client", to: "daemon" },
    {
      from: "cli",
      to: "daemon",
      allowed: (file: string, edge: { to: string; dynamic: boolean }) =>
        file === "cli/run.ts" && edge.dynamic && edge.to === "daemon/start.ts",
    },
    { from: "home", to: "daemon" },
  ];
  assert.deepEqual(layerViolations(graph, rules), [
    "cli/other.ts → daemon/start.ts",
    "client/a.ts → daemon/x.ts",
  ]);
});
