import { readFileSync } from "node:fs";
import { ANSWER_POLICIES, type AnswerPolicy, type ConciergePolicy } from "../../protocol/index.js";

/** What roost.json's `concierge` says: the policy it starts with, and the model it runs on. */
export interface ConciergeSettings {
  policy: ConciergePolicy;
  /** `provider/id`; null: the person's pi default. */
  model: string | null;
}

export const DEFAULT_POLICY: ConciergePolicy = { answer: "never", act: false };

/**
 * Reads `{"concierge": {"answer": "routine", "act": false, "model": "provider/id"}}` from the text of
 * roost.json. A value of the wrong kind (or no file) leaves the default: the concierge only watches
 * and suggests until the person allows more.
 */
export function parseConciergeSettings(text: string | null): ConciergeSettings {
  let raw: unknown;
  try {
    raw = text === null ? undefined : (JSON.parse(text) as { concierge?: unknown }).concierge;
  } catch {
    raw = undefined;
  }
  const c = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
  const answer = (ANSWER_POLICIES as readonly unknown[]).includes(c.answer)
    ? (c.answer as AnswerPolicy)
    : DEFAULT_POLICY.answer;
  return {
    policy: { answer, act: typeof c.act === "boolean" ? c.act : DEFAULT_POLICY.act },
    model: typeof c.model === "string" && c.model.trim() !== "" ? c.model.trim() : null,
  };
}

export function readConciergeSettings(file: string): ConciergeSettings {
  let text: string | null;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    text = null;
  }
  return parseConciergeSettings(text);
}
