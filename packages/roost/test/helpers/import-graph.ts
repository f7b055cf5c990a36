/**
 * The imports between the files of a source tree, and what is wrong with them: circles, and layers
 * reached into from the wrong side. Reading and resolving are apart from the graph, so the graph's
 * logic is tested on made-up graphs.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** One import: the file named (relative to the tree), and whether it is an `import(...)` call. */
export interface ImportEdge {
  to: string;
  dynamic: boolean;
}

/** Each file (relative to the tree, `/`-separated) and what it imports inside the tree. */
export type ImportGraph = Map<string, ImportEdge[]>;

/** The module specifiers a source text imports: `import`, `export ... from` and `import(...)`. */
export function importSpecifiers(source: string): { specifier: string; dynamic: boolean }[] {
  const file = ts.createSourceFile("source.ts", source, ts.ScriptTarget.Latest, false);
  const found: { specifier: string; dynamic: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push({ specifier: node.moduleSpecifier.text, dynamic: false });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, dynamic: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/**
 * The file a relative specifier names from `from` (both relative to the tree), with the `.js` the
 * sources write for the built file read as the `.ts` beside it; null for a package.
 */
export function resolveSpecifier(from: string, specifier: string): string | null {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return null;
  const joined = join(dirname(from), specifier).split("\\").join("/");
  return joined.endsWith(".js") ? `${joined.slice(0, -3)}.ts` : joined;
}

/** Reads every `.ts` file under `root` and what it imports inside `root`. */
export function readImportGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts")) {
        const name = relative(resolve(root), path).split("\\").join("/");
        const edges = importSpecifiers(readFileSync(path, "utf8")).flatMap(({ specifier, dynamic }) => {
          const to = resolveSpecifier(name, specifier);
          return to === null || to.startsWith("../") ? [] : [{ to, dynamic }];
        });
        graph.set(name, edges);
      }
    }
  };
  walk(resolve(root));
  return graph;
}

/** A group of files that reach each other through their imports, and one way around it. */
export interface ImportCycle {
  /** Every file of the group, sorted. */
  files: string[];
  /** The shortest path from its first file back to it: `[a, b, c, a]`. */
  path: string[];
}

/**
 * Every circle of imports, one per group of files that reach each other (Tarjan's strongly
 * connected components). Sorted, so a failure reads the same from run to run.
 */
export function findCycles(graph: ImportGraph): ImportCycle[] {
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const targets = (file: string) => (graph.get(file) ?? []).map((edge) => edge.to);
  const connect = (file: string): void => {
    index.set(file, index.size);
    lowest.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of targets(file)) {
      if (!index.has(next)) {
        connect(next);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(next)!));
      } else if (onStack.has(next)) {
        lowest.set(file, Math.min(lowest.get(file)!, index.get(next)!));
      }
    }
    if (lowest.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || targets(file).includes(file)) groups.push(group);
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) connect(file);
  return groups
    .map((group) => ({ files: [...group].sort(), path: pathAround(group, targets) }))
    .sort((a, b) => a.files[0]!.localeCompare(b.files[0]!));
}

/** The shortest way from the group's first file (by name) back to it, inside the group. */
function pathAround(group: string[], targets: (file: string) => string[]): string[] {
  const members = new Set(group);
  const start = [...group].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i]!;
    for (const next of targets(file)) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

/** A rule between parts of the tree: files under `from` import nothing under `to`, bar `allowed`. */
export interface LayerRule {
  from: string;
  to: string;
  allowed?: (file: string, edge: ImportEdge) => boolean;
}

/** Every import that breaks a rule, as `file → imported`. */
export function layerViolations(graph: ImportGraph, rules: LayerRule[]): string[] {
  const under = (file: string, folder: string) => file.startsWith(`${folder}/`);
  const found: string[] = [];
  for (const [file, edges] of graph) {
    for (const edge of edges) {
      const broken = rules.some(
        (rule) => under(file, rule.from) && under(edge.to, rule.to) && !rule.allowed?.(file, edge),
      );
      if (broken) found.push(`${file} → ${edge.to}`);
    }
  }
  return found.sort();
}
