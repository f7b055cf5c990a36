/** Codex (0.17x): a "›" input line, "• Working (3s • esc to interrupt)", "•" answers. */
import type { AgentReader } from "../agent-reader.js";

export const codex: AgentReader = {
  name: "codex",
  prompt: /^›\s/,
  promptAbove: null,
  // "fake-model default · ~/proj": not yet on the first input line it draws, under its logo.
  readyBelow: / · /,
  working: /^[•◦] (?<step>Working|[A-Z][\w ]+?) \(\d+[smh]/,
  answer: /^• (?<text>(?!Running |Ran |Exited |Working ).+)$/,
  answerEnd: /^(?:›\s|─{10,})/,
  refused: /^✗ You canceled the request to run (?<what>\S.*)$/,
  answerAbove: null,
  pointers: "›",
  pointerMenusOnly: true,
  // The dialog opens below the history's last entry ("• Running echo hi > x.txt").
  dialogTop: /^(?:[•◦›✗■] )/,
  dialogCommand: /^\$ \S/,
  hints: /^(?:Press enter to confirm|enter continue|esc back)/i,
  choiceDecoration: /\s+\((?:[a-z]|esc)\)$/,
};
