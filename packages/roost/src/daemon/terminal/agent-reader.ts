/**
 * What roost knows of an agent's screen, as data: its input prompt, its working line, where its
 * answers are, and how its dialogs look. One reader per known agent (`readers/`), and a generic one
 * for any other program (`reader-choice.ts` picks one).
 */

export interface AgentReader {
  name: string;
  /** The input line the cursor sits on when the agent waits for a task (null: not known). */
  prompt: RegExp | null;
  /** The line just above that input line, when the prompt is a frame (pi: a rule). */
  promptAbove: RegExp | null;
  /**
   * The first line below the input line (blank ones skipped) once the agent takes input (Codex: its
   * status line, "model · folder"). Before it shows, the input line is not yet a prompt: Codex draws
   * one under its logo as it starts, then perhaps its trust screen, which takes keys typed meanwhile.
   */
  readyBelow: RegExp | null;
  /** A line shown while the agent works; the named group `step` is what it does now. */
  working: RegExp | null;
  /** A line that starts one of the agent's answers; the named group `text` is its first line. */
  answer: RegExp | null;
  /** A line that ends the agent's last answer from below (its input box, a rule). */
  answerEnd: RegExp | null;
  /**
   * A line that says the person refused what the agent was about to do (its dialog answered No): the
   * named group `what` names it, else the answer line above it does.
   */
  refused: RegExp | null;
  /**
   * For an agent whose answers have no mark of their own (pi): the answer is the last paragraph
   * above the line that tops its input box.
   */
  answerAbove: RegExp | null;
  /** Glyphs marking a menu's highlighted item. */
  pointers: string;
  /** Whether only a menu with a highlighted item is a dialog (a numbered list alone is text). */
  pointerMenusOnly: boolean;
  /** A line just above a dialog's text (a rule, the last line of the history). */
  dialogTop: RegExp | null;
  /** A line below a dialog's question that shows what it asks about (`$ rm -rf build`). */
  dialogCommand: RegExp | null;
  /** A dialog's key hints ("Enter to confirm · Esc to cancel"): neither question nor text. */
  hints: RegExp;
  /** Taken off the end of a choice: hotkeys as "(y)" or "(esc)", a "✔" marking the current one. */
  choiceDecoration: RegExp;
}
