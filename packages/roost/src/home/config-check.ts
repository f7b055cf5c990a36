/**
 * `roost.json` checked whole, against one schema for every section it has: the profiles, the
 * concierge's policy, the agent-to-agent reach and caps, pi's tools, the worktree settings, the
 * notify command, the hub's bell, the price table, the budgets, whether interrupted jobs resume by
 * themselves, and whether the daemon keeps `roost web` running. A bad value is a finding naming the file and the key; the daemon logs each at start,
 * and `roost doctor` lists them.
 * Each section's reader goes on reading the file on every use (an edit applies at once).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Static, Type } from "typebox";
import { Value } from "typebox/value";
import { ANSWER_POLICIES, RoostError } from "../protocol/index.js";
import { BudgetsSchema, budgetRules } from "./budgets.js";
import { PricesSchema } from "./prices.js";
import { loadProfiles } from "./profiles.js";
import { checkWorktreeSetup } from "./worktree-settings.js";

const Cap = Type.Integer({ minimum: 0, description: "a whole number, 0 or more" });
const Flag = Type.Boolean({ description: "true or false" });

/** The keys roost reads; others are left to whoever wrote them. */
export const RoostConfigSchema = Type.Object({
  agentProfiles: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "an object" })),
  concierge: Type.Optional(
    Type.Object(
      {
        answer: Type.Optional(
          Type.Union(
            ANSWER_POLICIES.map((policy) => Type.Literal(policy)),
            { description: `one of ${ANSWER_POLICIES.join(", ")}` },
          ),
        ),
        act: Type.Optional(Flag),
        model: Type.Optional(Type.String({ pattern: "\\S", description: "a model's provider/id" })),
      },
      { description: "an object" },
    ),
  ),
  agentExternalMessages: Type.Optional(Flag),
  agentMaxDepth: Type.Optional(Cap),
  agentMaxChildren: Type.Optional(Cap),
  agentMaxTreeSessions: Type.Optional(Cap),
  agentMaxSpawned: Type.Optional(Cap),
  agentSpawnsPerMinute: Type.Optional(Cap),
  agentTools: Type.Optional(Flag),
  worktree: Type.Optional(
    Type.Union([Type.Boolean(), Type.Literal("auto")], { description: 'true, false or "auto"' }),
  ),
  worktreeRoot: Type.Optional(Type.String({ minLength: 1, description: "a folder path" })),
  worktreeSetup: Type.Optional(Type.Unknown()),
  notify: Type.Optional(
    Type.Object(
      {
        command: Type.Optional(
          Type.Array(Type.String({ minLength: 1 }), {
            minItems: 1,
            description: "an argv array: the program, then its arguments (non-empty strings)",
          }),
        ),
        debounceMs: Type.Optional(Cap),
      },
      { description: "an object" },
    ),
  ),
  hub: Type.Optional(Type.Object({ bell: Type.Optional(Flag) }, { description: "an object" })),
  prices: Type.Optional(PricesSchema),
  budgets: Type.Optional(BudgetsSchema),
  resumeAfterReboot: Type.Optional(Flag),
  web: Type.Optional(
    Type.Object(
      {
        enabled: Type.Optional(Flag),
        port: Type.Optional(
          Type.Integer({ minimum: 1, maximum: 65535, description: "a port number, 1 to 65535" }),
        ),
        host: Type.Optional(Type.String({ pattern: "^\\S+$", description: "an address (no spaces)" })),
      },
      { additionalProperties: false, description: "an object" },
    ),
  ),
});
export type RoostConfig = Static<typeof RoostConfigSchema>;

/** One thing wrong in `roost.json`: the key (dotted; "" for the file itself) and what is wrong. */
export interface ConfigFinding {
  key: string;
  message: string;
}

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: boolean;
  description?: string;
}

/**
 * A key as a finding names it (an item of a list by its place: `budgets[0].per`), and what the
 * finding says of it: what the schema wants there (its description), or that no such key is taken.
 */
function findingAt(path: string[]): { key: string; want: string | undefined } {
  let schema: SchemaNode | undefined = RoostConfigSchema as SchemaNode;
  let key = "";
  for (const part of path) {
    const parent: SchemaNode | undefined = schema;
    const item: boolean = parent?.items !== undefined && /^\d+$/.test(part);
    key += item ? `[${part}]` : key === "" ? part : `.${part}`;
    schema = item ? parent?.items : parent?.properties?.[part];
    if (!schema && parent?.additionalProperties === false && parent.properties)
      return { key, want: `is not a key it takes (${Object.keys(parent.properties).join(", ")})` };
  }
  return { key, want: schema?.description && `must be ${schema.description}` };
}

/**
 * One finding per key the schema refuses (a union's refusal comes once, not once per choice). Each
 * top-level key is checked on its own: the validator gives a few errors a check (a union's choices
 * take several), and one bad section must not hide another.
 */
function schemaFindings(file: string, parsed: Record<string, unknown>): ConfigFinding[] {
  const byKey = new Map<string, ConfigFinding>();
  for (const [top, schema] of Object.entries(RoostConfigSchema.properties)) {
    if (parsed[top] === undefined) continue;
    for (const error of Value.Errors(schema, parsed[top])) {
      // A key the schema does not take is named at itself (its own error), not at its object.
      if (error.keyword === "additionalProperties") continue;
      const { key, want } = findingAt([top, ...error.instancePath.split("/").filter(Boolean)]);
      if (byKey.has(key)) continue;
      byKey.set(key, { key, message: `${file}: ${key} ${want ?? error.message}` });
    }
  }
  return [...byKey.values()];
}

/** The key a profile's error names (`FILE: agentProfiles.NAME.FIELD must be ...`). */
function profileKey(file: string, message: string): string {
  const named = message.startsWith(`${file}: `) ? message.slice(file.length + 2).split(" ")[0] : undefined;
  return named?.startsWith("agentProfiles") ? named : "agentProfiles";
}

/**
 * What is wrong with `HOME/roost.json`, each naming its key; none for a good file or no file.
 * The profiles are checked as dispatch checks them (the first bad one is named).
 */
export function checkConfig(home: string): ConfigFinding[] {
  const file = join(home, "roost.json");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    return [{ key: "", message: `${file}: cannot be read (${(err as Error).message})` }];
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return [{ key: "", message: `${file}: not valid JSON (${(err as Error).message})` }];
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return [{ key: "", message: `${file}: must hold a JSON object` }];
  const findings = schemaFindings(file, parsed as Record<string, unknown>);
  const { worktreeSetup } = parsed as { worktreeSetup?: unknown };
  const refusal = (check: () => void): string | undefined => {
    try {
      check();
      return undefined;
    } catch (err) {
      if (!(err instanceof RoostError)) throw err;
      return err.message;
    }
  };
  const setup =
    worktreeSetup === undefined
      ? undefined
      : refusal(() => checkWorktreeSetup(file, "worktreeSetup", worktreeSetup));
  if (setup) findings.push({ key: "worktreeSetup", message: setup });
  // The profiles as dispatch reads them, once the schema takes them; the budgets' are checked by them.
  let profiles: ReadonlySet<string> | null = null;
  if (!findings.some((f) => f.key.startsWith("agentProfiles"))) {
    const refused = refusal(() => {
      profiles = new Set(loadProfiles(file).keys());
    });
    if (refused) findings.push({ key: profileKey(file, refused), message: refused });
  }
  const { budgets } = parsed as { budgets?: unknown };
  if (Value.Check(BudgetsSchema, budgets))
    for (const { key, want } of budgetRules(budgets, profiles))
      findings.push({ key, message: `${file}: ${key} ${want}` });
  return findings;
}
