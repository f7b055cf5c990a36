/** pi's own TUI (0.73): an input box between two rules, "⠹ Working..." while it works. */
import type { AgentReader } from "../agent-reader.js";

const RULE = /^─{10,}$/;

export const piTui: AgentReader = {
  name: "pi",
  prompt: /^/,
  promptAbove: RULE,
  readyBelow: null,
  working: /^\s?[\u2800-\u28ff] (?<step>\S.*)$/,
  answer: null,
  answerEnd: null,
  refused: null,
  answerAbove: RULE,
  pointers: "→❯>",
  pointerMenusOnly: true,
  dialogTop: RULE,
  dialogCommand: null,
  hints: /^(?:↑↓|enter to|esc to)/i,
  choiceDecoration: /\s+✔$/,
};
