import type { ExtensionContext } from "@mariozechner/pi-coding-agent";

/** Tells the person what went wrong: in pi's UI when it has one (stderr would garble the TUI). */
export function warn(ctx: ExtensionContext | undefined, error: unknown): void {
  const text = `roost: ${error instanceof Error ? error.message : String(error)}`;
  if (ctx?.hasUI) ctx.ui.notify(text, "error");
  else console.error(text);
}
