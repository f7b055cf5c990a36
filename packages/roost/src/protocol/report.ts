import { RoostError } from "./errors.js";
import { LIMITS } from "./limits.js";
import { foldName } from "./names.js";

export const REPORT_STATES = ["working", "blocked", "done", "failed"] as const;
export const REPORT_STATUSES = ["busy", "waiting", "idle"] as const;
export const WAITING_FOR = ["question", "dialog", "first-prompt"] as const;

export type ReportState = (typeof REPORT_STATES)[number];
export type ReportStatus = (typeof REPORT_STATUSES)[number];
export type WaitingFor = (typeof WAITING_FOR)[number];

export interface ContextUsage {
  tokens: number;
  window: number;
  percent: number;
}

/** A full snapshot of an agent's state: what is left out is null. */
export interface Report {
  state: ReportState;
  status: ReportStatus | null;
  waitingFor: WaitingFor | null;
  summary: string | null;
  question: string | null;
  choices: string[];
  tool: string | null;
  error: string | null;
  name: string | null;
  model: string | null;
  thinking: string | null;
  context: ContextUsage | null;
  usage: Record<string, unknown> | null;
  prLinks: string[] | null;
  remoteAt: string | null;
  agentItems: boolean;
  /** The session file the agent writes (pi): peers collapse by it. */
  session: string | null;
}

/** What a client may send: any subset; the rest is filled in. */
export type ReportInput = Partial<Report>;

export function emptyReport(): Report {
  return {
    state: "working",
    status: null,
    waitingFor: null,
    summary: null,
    question: null,
    choices: [],
    tool: null,
    error: null,
    name: null,
    model: null,
    thinking: null,
    context: null,
    usage: null,
    prLinks: null,
    remoteAt: null,
    agentItems: false,
    session: null,
  };
}

function bad(field: string, want: string): never {
  throw new RoostError("bad_request", `report.${field} must be ${want}`);
}

function optionalString(raw: Record<string, unknown>, field: string, max: number): string | null {
  const v = raw[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== "string") bad(field, "a string or null");
  return v.slice(0, max);
}

function optionalEnum<T extends string>(
  raw: Record<string, unknown>,
  field: string,
  values: readonly T[],
): T | null {
  const v = raw[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== "string" || !(values as readonly string[]).includes(v))
    bad(field, `one of ${values.join(", ")}`);
  return v as T;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function finite(field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value)) bad(field, "a finite number");
  return value;
}

/** Plain JSON at most `openFieldDepth` levels deep, its numbers finite (checked before anything walks it whole). */
function checkOpenShape(field: string, value: unknown, depth: number): void {
  if (typeof value === "number") finite(field, value);
  else if (value === null || typeof value === "string" || typeof value === "boolean") return;
  else if (typeof value !== "object") bad(field, "plain JSON");
  else if (depth >= LIMITS.openFieldDepth) bad(field, `at most ${LIMITS.openFieldDepth} levels deep`);
  else
    for (const v of Array.isArray(value) ? value : Object.values(value)) checkOpenShape(field, v, depth + 1);
}

/** An open field (`usage`): an object of bounded depth and size, its numbers finite. */
function openField(field: string, value: unknown): Record<string, unknown> {
  if (!isObject(value)) bad(field, "an object");
  checkOpenShape(field, value, 0);
  if (JSON.stringify(value).length > LIMITS.openFieldChars)
    bad(field, `at most ${LIMITS.openFieldChars} characters of JSON`);
  return value;
}

/**
 * Checks a report from the wire and fills its defaults. Over-long strings are cut to the spec's
 * limits; a field of the wrong type, a number that is not finite, or an open field too deep or too
 * big is `bad_request`. Unknown fields are ignored.
 */
export function normalizeReport(raw: unknown): Report {
  if (!isObject(raw)) throw new RoostError("bad_request", "report must be an object");
  const out = emptyReport();
  out.state = optionalEnum(raw, "state", REPORT_STATES) ?? "working";
  out.status = optionalEnum(raw, "status", REPORT_STATUSES);
  out.waitingFor = optionalEnum(raw, "waitingFor", WAITING_FOR);
  out.summary = optionalString(raw, "summary", LIMITS.summary);
  out.question = optionalString(raw, "question", LIMITS.question);
  out.tool = optionalString(raw, "tool", LIMITS.tool);
  out.error = optionalString(raw, "error", LIMITS.error);
  const name = optionalString(raw, "name", LIMITS.name);
  out.name = name === null ? null : foldName(name) || null;
  out.model = optionalString(raw, "model", LIMITS.model);
  out.thinking = optionalString(raw, "thinking", LIMITS.thinking);
  out.remoteAt = optionalString(raw, "remoteAt", LIMITS.summary);
  out.session = optionalString(raw, "session", LIMITS.session) || null;
  const choices = raw.choices;
  if (choices !== undefined && choices !== null) {
    if (!Array.isArray(choices) || choices.some((c) => typeof c !== "string"))
      bad("choices", "an array of strings");
    out.choices = (choices as string[]).slice(0, LIMITS.choices).map((c) => c.slice(0, LIMITS.choice));
  }
  const prLinks = raw.prLinks;
  if (prLinks !== undefined && prLinks !== null) {
    if (!Array.isArray(prLinks) || prLinks.some((c) => typeof c !== "string"))
      bad("prLinks", "an array of strings");
    out.prLinks = (prLinks as string[]).slice(0, LIMITS.choices).map((c) => c.slice(0, LIMITS.choice));
  }
  const context = raw.context;
  if (context !== undefined && context !== null) {
    if (!isObject(context)) bad("context", "{tokens, window, percent} numbers");
    out.context = {
      tokens: finite("context.tokens", context.tokens),
      window: finite("context.window", context.window),
      percent: finite("context.percent", context.percent),
    };
  }
  const usage = raw.usage;
  if (usage !== undefined && usage !== null) {
    out.usage = openField("usage", usage);
  }
  const agentItems = raw.agentItems;
  if (agentItems !== undefined && agentItems !== null) {
    if (typeof agentItems !== "boolean") bad("agentItems", "a boolean");
    out.agentItems = agentItems;
  }
  return out;
}
