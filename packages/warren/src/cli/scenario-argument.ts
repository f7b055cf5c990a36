import { existsSync } from "node:fs";
import { extname, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { RunError } from "../engine/errors.js";
import type { ScenarioDefinition } from "../engine/scenario.js";
import { looksLikeScenario, scenarioProblem } from "../engine/scenario-shape.js";
import { findScenario, unknownScenario } from "../scenarios/index.js";

const MODULE_EXTENSIONS = new Set([".js", ".mjs", ".ts", ".mts"]);
const TYPESCRIPT_EXTENSIONS = new Set([".ts", ".mts"]);

/** A scenario module that could not be read (`scenario_not_loaded`) or holds no scenario (`not_a_scenario`). */
export class ScenarioModuleError extends Error {
  constructor(
    readonly code: "scenario_not_loaded" | "not_a_scenario",
    message: string,
  ) {
    super(message);
    this.name = "ScenarioModuleError";
  }
}

/**
 * A SCENARIO argument: a bundled scenario's name, or the path of a module (JavaScript, or
 * TypeScript loaded through tsx) whose default export, or only exported scenario, is a
 * ScenarioDefinition.
 */
export async function scenarioArgument(text: string): Promise<ScenarioDefinition> {
  const bundled = findScenario(text);
  if (bundled) return bundled;
  if (!text.includes("/") && !text.includes(sep) && !MODULE_EXTENSIONS.has(extname(text))) {
    throw new RunError(
      "unknown_scenario",
      `${unknownScenario(text).message}; or name a scenario module's file, like ./my_scenario.ts`,
    );
  }
  return loadScenarioModule(text);
}

async function loadScenarioModule(path: string): Promise<ScenarioDefinition> {
  const file = resolve(path);
  if (!existsSync(file)) throw new ScenarioModuleError("scenario_not_loaded", `there is no file ${path}`);
  if (TYPESCRIPT_EXTENSIONS.has(extname(file))) await loadTypeScript(path);
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw new ScenarioModuleError(
      "scenario_not_loaded",
      `${path} could not be loaded: ${(error as Error).message}`,
    );
  }
  const candidates =
    exports.default === undefined ? Object.values(exports).filter(looksLikeScenario) : [exports.default];
  if (candidates.length !== 1) {
    throw new ScenarioModuleError(
      "not_a_scenario",
      `${path} exports ${candidates.length === 0 ? "no scenario" : `${candidates.length} scenarios`}: export the one to check as its default export`,
    );
  }
  const problem = scenarioProblem(candidates[0]);
  if (problem) throw new ScenarioModuleError("not_a_scenario", `${path}: its scenario ${problem}`);
  return candidates[0] as ScenarioDefinition;
}

/**
 * TypeScript modules load through tsx where it is installed (this repository has it), imported
 * only when one is named. warren does not depend on it: its own code is JavaScript.
 */
async function loadTypeScript(path: string): Promise<void> {
  let register: () => unknown;
  try {
    ({ register } = await import("tsx/esm/api"));
  } catch {
    throw new ScenarioModuleError(
      "scenario_not_loaded",
      `${path} is TypeScript, which loads through tsx: install it (npm install --save-dev tsx), or name the compiled .js`,
    );
  }
  register();
}
