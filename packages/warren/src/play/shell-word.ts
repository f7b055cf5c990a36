/** A word as a POSIX shell reads it back: as it is when plain, else quoted whole. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
