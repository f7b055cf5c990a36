/**
 * The fields a ScenarioDefinition must have, checked at run time: a definition from a module's file
 * was never seen by the compiler, and a missing field would otherwise surface mid-run as a
 * TypeError far from its cause.
 */
const REQUIRED_FIELDS: readonly [
  field: string,
  type: "string" | "number" | "object" | "array" | "function",
][] = [
  ["name", "string"],
  ["title", "string"],
  ["premise", "string"],
  ["summary", "string"],
  ["notes", "string"],
  ["agents", "array"],
  ["objectives", "array"],
  ["timeLimitMs", "number"],
  ["msPerCell", "number"],
  ["sightRadius", "number"],
  ["budgets", "object"],
  ["steps", "number"],
  ["tools", "array"],
  ["build", "function"],
  ["solution", "function"],
  ["solvableWith", "function"],
];

/** Whether a value could be a scenario at all: what picks one out of a module's exports. */
export function looksLikeScenario(value: unknown): boolean {
  const v = value as Record<string, unknown> | null;
  return typeof v?.name === "string" && Array.isArray(v.agents) && typeof v.solution === "function";
}

/** What is wrong with a value meant as a ScenarioDefinition, in a sentence; "" when nothing is. */
export function scenarioProblem(value: unknown): string {
  if (value === null || typeof value !== "object") return "is not an object";
  const scenario = value as Record<string, unknown>;
  for (const [field, type] of REQUIRED_FIELDS) {
    const v = scenario[field];
    const actual = Array.isArray(v) ? "array" : v === null ? "null" : typeof v;
    if (actual !== type) return `needs ${field}, ${/^[ao]/.test(type) ? "an" : "a"} ${type} (got ${actual})`;
  }
  if (scenario.name === "") return "needs a name";
  if ((scenario.agents as unknown[]).length === 0) return "needs at least one agent";
  if ((scenario.objectives as unknown[]).length === 0) return "needs at least one objective";
  return "";
}
