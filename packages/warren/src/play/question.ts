import type { Briefing, Envelope } from "../protocol/index.js";
import { commandsUsage, writeCommand } from "./written-command.js";

/**
 * What a person is asked at each observation, within what a roost row holds: a question of at most
 * 2000 characters, at most 20 choices of at most 200 each, a summary of at most 500. Choices past
 * those limits are still reachable by typing the command.
 */
export const QUESTION_LIMITS = { question: 2000, choices: 20, choice: 200, summary: 500 } as const;

/** How long the ready-made `sleep` choice sleeps, in sim ms. */
export const CHOICE_SLEEP_MS = 5000;

export interface Question {
  question: string;
  choices: string[];
  summary: string;
}

/** The envelope's suggestions in written form, then a sleep and a noop, which always fit. */
export function choicesFor(envelope: Envelope, briefing: Briefing): string[] {
  const always = [`sleep ${CHOICE_SLEEP_MS}`, "noop"];
  const actions = envelope.affordances
    .flatMap((a) =>
      a.suggestions.map((args) => writeCommand({ action: a.action, args }, briefing.tool_catalog)),
    )
    .filter((written) => written.length <= QUESTION_LIMITS.choice);
  return [...actions.slice(0, QUESTION_LIMITS.choices - always.length), ...always];
}

/** The text cut to `max` characters, an ellipsis saying it was. */
export function fit(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The envelope's text for a language model ends with how to answer in JSON; a person types instead. */
function observationText(envelope: Envelope): string {
  return envelope.text
    .split("\n")
    .filter((line) => !line.startsWith("Answer with exactly one command"))
    .join("\n");
}

/**
 * The question for one observation: what became of the last command (`note`), the observation's
 * text, how long there is to answer, and how to answer.
 */
export function questionFor(
  envelope: Envelope,
  briefing: Briefing,
  note: string,
  nowMs = Date.now(),
): Question {
  const seconds = Math.max(0, Math.round(envelope.deadline_unix - nowMs / 1000));
  const how = `Reply with a choice's number or a command (${commandsUsage(briefing.tool_catalog)}); within ${seconds} s, or a noop is recorded.`;
  const head = note ? `${note}\n` : "";
  const room = QUESTION_LIMITS.question - head.length - how.length - 1;
  const question = `${head}${fit(observationText(envelope), Math.max(0, room))}\n${how}`;
  const where = envelope.observation.you.place ?? envelope.observation.you.cell;
  const summary = `${envelope.agent_id} at ${where}, t=${envelope.sim_time_ms / 1000}s: your move${note ? ` (${note})` : ""}`;
  return {
    question: fit(question, QUESTION_LIMITS.question),
    choices: choicesFor(envelope, briefing),
    summary: fit(summary, QUESTION_LIMITS.summary),
  };
}
