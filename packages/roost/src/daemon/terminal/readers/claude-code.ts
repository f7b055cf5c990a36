/** Claude Code (2.x): an input box between two rules, a spinner line while it works, "●" answers. */
import type { AgentReader } from "../agent-reader.js";

export const claudeCode: AgentReader = {
  name: "claude",
  // The box's "❯" is followed by a no-break space.
  prompt: /^❯\s/,
  promptAbove: null,
  readyBelow: null,
  // "✻ Pollinating… (3s · ↓ 20 tokens · esc to interrupt)": the glyph turns, the word stays a while.
  working: /^[✻✶✳✢✽*·⏺] (?<step>\S[^()]*…)/,
  answer: /^● (?<text>\S.*)$/,
  answerEnd: /^(?:❯\s|✻ |─{10,})/,
  refused: /^\s*⎿\s+Interrupted · What should Claude do instead\?/,
  answerAbove: null,
  pointers: "❯",
  pointerMenusOnly: true,
  dialogTop: /^─{10,}$/,
  dialogCommand: null,
  hints: /^(?:Enter to confirm|Esc to cancel)/,
  choiceDecoration: /\s+✔$/,
};
