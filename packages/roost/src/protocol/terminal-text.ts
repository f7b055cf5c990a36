/**
 * Text from an agent or a screen, made safe to print on a person's terminal. Every side shows
 * such text through here (the CLI, the hub), so a task titled `ESC]0;pwned BEL ESC[2J` neither
 * sets the window's title nor clears the screen, and a name with a bidi override cannot show as
 * another.
 */

/**
 * Escape sequences, 7-bit and 8-bit: OSC, DCS, SOS, PM and APC strings up to their terminator
 * (BEL or ST, or the end of the text), CSI sequences, and two-character ESC sequences.
 */
const SEQUENCES = new RegExp(
  [
    "(?:\\x1b[\\]PX^_]|[\\x90\\x98\\x9d\\x9e\\x9f])[^\\x07\\x1b\\x9c]*(?:\\x07|\\x1b\\\\|\\x9c|$)",
    "(?:\\x1b\\[|\\x9b)[\\x30-\\x3f]*[\\x20-\\x2f]*[\\x40-\\x7e]?",
    "\\x1b[\\x20-\\x2f]*[\\x30-\\x7e]?",
  ].join("|"),
  "g",
);

/**
 * Invisible format characters: bidi overrides, isolates and marks, zero-width spaces and joiners,
 * the word joiner, the BOM, soft hyphens, tag characters (Unicode's `Cf`), and the Hangul fillers,
 * which draw as blanks.
 */
export const INVISIBLE = /[\p{Cf}\u115f\u1160\u3164\uffa0]/gu;

/** What JSON.stringify leaves raw in a string and a terminal may act on: DEL, C1, the separators. */
const RAW_IN_JSON = /[\x7f-\x9f\u2028\u2029]/gu;

/**
 * The invisible characters, but for a zero-width joiner inside an emoji sequence (👩‍💻), which
 * draws one emoji and is kept (the first alternative matches it and gives it back whole).
 */
const HIDDEN = new RegExp(
  `(\\p{Extended_Pictographic}\\ufe0f?\u200d)(?=\\p{Extended_Pictographic})|${INVISIBLE.source}`,
  "gu",
);

function withoutInvisible(text: string): string {
  return text.replace(HIDDEN, (_match, joined: string | undefined) => joined ?? "");
}

/**
 * Text from an agent or a screen as it may be printed: escape sequences and invisible format
 * characters taken out, every other control character a space (runs of them one). With `lines`,
 * line breaks (`\n`, `\r\n`, a lone `\r`, U+2028/U+2029) are kept as `\n` and a tab as a space;
 * without, the text is one line.
 */
export function terminalSafe(text: string, options: { lines?: boolean } = {}): string {
  const plain = withoutInvisible(text.replace(SEQUENCES, ""));
  if (!options.lines) return plain.replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029]+/g, " ");
  return plain
    .replace(/\r\n?|[\u2028\u2029]/g, "\n")
    .split("\n")
    .map((line) => line.replace(/[\x00-\x1f\x7f-\x9f]+/g, " "))
    .join("\n");
}

/**
 * JSON for a terminal: the same value, with DEL, C1, the separators and invisible format
 * characters in its strings written as `\u` escapes, as JSON.stringify writes C0 ones already
 * (those characters appear only inside strings, so the JSON stays valid).
 */
export function terminalSafeJson(value: unknown, indent?: number): string {
  const json = JSON.stringify(value, null, indent) ?? "null";
  return json.replace(new RegExp(`${RAW_IN_JSON.source}|${INVISIBLE.source}`, "gu"), (c) =>
    Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`).join(
      "",
    ),
  );
}
