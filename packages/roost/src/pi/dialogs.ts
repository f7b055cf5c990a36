import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";

/** pi's dialogs: what an extension or a tool asks the person through the UI. */
const DIALOGS = ["select", "confirm", "input", "editor"] as const;
const WATCHED = Symbol("roost watches this dialog");

type Dialog = ((...args: unknown[]) => Promise<unknown>) & { [WATCHED]?: true };

/**
 * Calls `onChange(true)` when the first dialog opens in pi's UI and `onChange(false)` when the last
 * one closes. pi 0.73 has no event for dialogs: its one UI context's dialog methods are wrapped
 * (once, whoever opens them).
 */
export function watchDialogs(ui: ExtensionUIContext, onChange: (open: boolean) => void): void {
  let open = 0;
  const methods = ui as unknown as Record<string, Dialog>;
  for (const name of DIALOGS) {
    const original = methods[name];
    if (typeof original !== "function" || original[WATCHED]) continue;
    const watched: Dialog = async (...args) => {
      if (open++ === 0) onChange(true);
      try {
        return await original.apply(ui, args);
      } finally {
        if (--open === 0) onChange(false);
      }
    };
    watched[WATCHED] = true;
    methods[name] = watched;
  }
}
