import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";
import { jobEnvironment } from "../src/protocol/environment.js";
import { emptyReport } from "../src/protocol/report.js";
import { ScriptedDaemon } from "./fixtures/client-fake-daemon.js";

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");
const entries = [join(src, "client", "agent.ts"), join(src, "client", "reporter.ts")];
const allowedFolders = [join(src, "client"), join(src, "protocol")];

/** The modules a file loads when it runs: type-only imports and exports are gone by then. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const out: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause !== undefined &&
          clause.name === undefined &&
          clause.namedBindings !== undefined &&
          ts.isNamedImports(clause.namedBindings) &&
          clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) out.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      out.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return out;
}

/** Every module the agent client loads, following relative imports from its entries. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (graph.has(file)) continue;
    const specifiers = runtimeImports(file);
    graph.set(file, specifiers);
    for (const specifier of specifiers) {
      if (specifier.startsWith(".")) queue.push(resolve(dirname(file), specifier).replace(/\.js$/, ".ts"));
    }
  }
  return graph;
}

test("the agent client imports node's own modules and roost's protocol, nothing else", () => {
  const graph = importGraph();
  const outside: string[] = [];
  for (const [file, specifiers] of graph) {
    for (const specifier of specifiers) {
      if (specifier.startsWith("node:")) continue;
      const target = specifier.startsWith(".") ? resolve(dirname(file), specifier) : undefined;
      if (target && allowedFolders.some((folder) => target.startsWith(folder + "/"))) continue;
      outside.push(`${relative(root, file)} imports ${specifier}`);
    }
  }
  assert.deepEqual(outside, []);
  // The walk saw the whole client: the reply queue, the ledger, the connection and the protocol.
  const seen = [...graph.keys()].map((f) => relative(src, f));
  for (const file of ["client/reply-queue.ts", "client/finished-replies.ts", "client/connection.ts"]) {
    assert.ok(seen.includes(file), `${file} in ${seen}`);
  }
  assert.ok(seen.some((f) => f.startsWith("protocol/")));
});

const built = mkdtempSync(join(tmpdir(), "roost-agent-build-"));
after(() => rmSync(built, { recursive: true, force: true }));

/**
 * Compiles the agent client's modules as the build does (the tsconfig's options, one module each)
 * into a `dist` folder of a plain ES module package.
 */
function compileAgentClient(into: string): void {
  const base = ts.readConfigFile(join(root, "..", "..", "tsconfig.base.json"), ts.sys.readFile).config;
  const { options } = ts.convertCompilerOptionsFromJson(base.compilerOptions, root);
  writeFileSync(join(into, "package.json"), JSON.stringify({ type: "module" }));
  for (const file of importGraph().keys()) {
    const { outputText } = ts.transpileModule(readFileSync(file, "utf8"), {
      compilerOptions: { ...options, module: ts.ModuleKind.ES2022, sourceMap: false, declaration: false },
      fileName: file,
    });
    const out = join(into, "dist", relative(src, file).replace(/\.ts$/, ".js"));
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, outputText);
  }
}

test("the compiled agent client runs in a plain node process", async () => {
  compileAgentClient(built);
  const daemon = await new ScriptedDaemon().listen();
  try {
    const dir = join(daemon.dir, "job");
    mkdirSync(dir);
    // The module `pi-roost/agent` names, at the same place under the compiled folder.
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    assert.equal(manifest.exports["./agent"].default, "./dist/client/agent.js");
    const agentModule = join(built, manifest.exports["./agent"].default);
    const script = `
      import { RoostAgent } from ${JSON.stringify(agentModule)};
      const agent = RoostAgent.fromEnv({ name: "plain", version: "1", onReply: async (r) => {
        agent.report({ state: "done", summary: "handled " + r.text });
        setImmediate(() => agent.close());
      } });
      agent.report({ state: "blocked", waitingFor: "first-prompt" });
    `;
    const env = {
      PATH: process.env.PATH ?? "",
      ...jobEnvironment({ id: "j", token: "t", socket: daemon.socketPath, dir }),
    };
    const child = run(process.execPath, ["--input-type=module", "-e", script], { env, timeout: 20_000 });
    await daemon.until(() => daemon.ops("report").length === 1, "the first report");
    daemon.send({ event: "deliver", id: "j", seq: 1, text: "the task" });
    await child;
    assert.deepEqual(
      daemon
        .ops()
        .slice(0, 2)
        .map((r) => r.op),
      ["hello", "report"],
    );
    assert.deepEqual(
      daemon.ops("ack").map((r) => r.args.seq),
      [1],
    );
    // close sent the latest report last.
    const last = daemon.ops().at(-1);
    assert.equal(last?.op, "report");
    assert.deepEqual(last?.args.report, { ...emptyReport(), state: "done", summary: "handled the task" });
    assert.deepEqual(JSON.parse(readFileSync(join(dir, "agent.json"), "utf8")), { finished: 1, items: [] });
  } finally {
    await daemon.dispose();
  }
});
