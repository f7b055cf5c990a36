import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { piCliPath } from "../pi-profile.js";
import type { JobRecord } from "../store.js";

/** The concierge's pi extension (the source when run from it, else the build). */
export function conciergeExtensionPath(): string {
  const source = import.meta.url.endsWith(".ts");
  const file = source ? "../../pi/concierge/extension.ts" : "../../pi/concierge/extension.js";
  return fileURLToPath(new URL(file, import.meta.url));
}

/**
 * Makes a job the default concierge: pi (its TUI under the job's terminal, so a person can attach)
 * with the concierge's extension, a session file in the job's folder, on the model roost.json names
 * (else the person's pi default).
 */
export function asPiConcierge(record: JobRecord, model: string | null): void {
  record.command = [
    process.execPath,
    piCliPath(),
    "-e",
    conciergeExtensionPath(),
    "--session",
    join(record.dir, "session.jsonl"),
  ];
  if (model !== null) record.env = { ...record.env, ROOST_MODEL: model };
}
