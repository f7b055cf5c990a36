/** Any program roost knows nothing of: prompts, menus and questions read by their usual shapes. */
import type { AgentReader } from "../agent-reader.js";

export const generic: AgentReader = {
  name: "generic",
  prompt: null,
  promptAbove: null,
  readyBelow: null,
  working: null,
  answer: null,
  answerEnd: null,
  refused: null,
  answerAbove: null,
  pointers: ">❯›»*→",
  pointerMenusOnly: false,
  dialogTop: null,
  dialogCommand: null,
  hints: /^(?:enter to (?:confirm|select)|press enter to confirm|use arrow keys|↑↓)/i,
  choiceDecoration: /\s+(?:\((?:[a-z]|esc|enter)\)|✔)$/i,
};
