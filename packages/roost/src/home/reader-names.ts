/**
 * The screen readers a profile may name (`reader` in roost.json). The readers themselves are the
 * daemon's (`daemon/terminal/readers/`); their table is typed by these names, so the two agree.
 */
export const READER_NAMES = ["claude", "codex", "pi", "generic"] as const;

export type ReaderName = (typeof READER_NAMES)[number];

export function isReaderName(name: unknown): name is ReaderName {
  return (READER_NAMES as readonly unknown[]).includes(name);
}
