/** A time as the clock on the wall reads it (HH:MM:SS, local), as the hub's panes show it. */
export function clockTime(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : date.toTimeString().slice(0, 8);
}
