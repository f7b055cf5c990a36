/** A one-line editor's text and cursor, edited by pure functions (the view draws it). */
export interface LineEditor {
  text: string;
  /** Index into `text` (UTF-16 units) where typing goes. */
  cursor: number;
}

export function emptyEditor(text = ""): LineEditor {
  return { text, cursor: text.length };
}

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

function insert(editor: LineEditor, typed: string): LineEditor {
  // Pasted line breaks become spaces: a reply is one line here.
  const clean = typed.replace(/\r\n|[\r\n\t]/g, " ").replace(/[\x00-\x1f\x7f]/g, "");
  return {
    text: editor.text.slice(0, editor.cursor) + clean + editor.text.slice(editor.cursor),
    cursor: editor.cursor + clean.length,
  };
}

function previousWordStart(text: string, from: number): number {
  let i = from;
  while (i > 0 && text[i - 1] === " ") i--;
  while (i > 0 && text[i - 1] !== " ") i--;
  return i;
}

/**
 * Applies one key (a pi-tui key id, or the raw input for text) to the editor. Returns the new
 * editor, or undefined when the key is not an editing key (enter, escape, ... are the caller's).
 */
export function editLine(editor: LineEditor, key: string | undefined, data: string): LineEditor | undefined {
  const { text, cursor } = editor;
  switch (key) {
    case "backspace":
      if (cursor === 0) return editor;
      return { text: text.slice(0, cursor - 1) + text.slice(cursor), cursor: cursor - 1 };
    case "delete":
      return { text: text.slice(0, cursor) + text.slice(cursor + 1), cursor };
    case "left":
      return { text, cursor: Math.max(0, cursor - 1) };
    case "right":
      return { text, cursor: Math.min(text.length, cursor + 1) };
    case "home":
    case "ctrl+a":
      return { text, cursor: 0 };
    case "end":
    case "ctrl+e":
      return { text, cursor: text.length };
    case "ctrl+u":
      return { text: text.slice(cursor), cursor: 0 };
    case "ctrl+k":
      return { text: text.slice(0, cursor), cursor };
    case "ctrl+w":
    case "alt+backspace": {
      const start = previousWordStart(text, cursor);
      return { text: text.slice(0, start) + text.slice(cursor), cursor: start };
    }
    case "space":
      return insert(editor, " ");
  }
  if (data.startsWith(PASTE_START)) {
    return insert(
      editor,
      data.slice(PASTE_START.length, data.endsWith(PASTE_END) ? -PASTE_END.length : undefined),
    );
  }
  const printable = typedText(key, data);
  return printable === undefined ? undefined : insert(editor, printable);
}

/** The text a key types, if it types any: plain characters, or a kitty-encoded printable key. */
function typedText(key: string | undefined, data: string): string | undefined {
  if (data.length > 0 && !/[\x00-\x1f\x7f]/.test(data)) return data;
  if (key !== undefined && [...key].length === 1) return key;
  if (key?.startsWith("shift+") && [...key].length === 7) return key.slice(6).toUpperCase();
  return undefined;
}
