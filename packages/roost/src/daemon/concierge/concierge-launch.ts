import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { piCliPath } from "../../home/pi-profile.js";
import { CONCIERGE_PROMPT } from "../../pi/concierge/system-prompt.js";
import type { JobRecord } from "../store/store.js";

/** The concierge's pi extension (the source when run from it, else the build). */
export function conciergeExtensionPath(): string {
  const source = import.meta.url.endsWith(".ts");
  const file = source ? "../../pi/concierge/extension.ts" : "../../pi/concierge/extension.js";
  return fileURLToPath(new URL(file, import.meta.url));
}

/**
 * Makes a job the default concierge: pi (its TUI under the job's terminal, so a person can attach)
 * with the concierge's extension and its role in the system prompt, a session file in the job's
 * folder, on the model roost.json names (else the person's pi default).
 */
export function asPiConcierge(record: JobRecord, model: string | null): void {
  record.command = [
    process.execPath,
    piCliPath(),
    // Its own extension only: a worker from an extension the person installed would speak for the job too.
    "--no-extensions",
    "-e",
    conciergeExtensionPath(),
    "--session",
    join(record.dir, "session.jsonl"),
    "--append-system-prompt",
    CONCIERGE_PROMPT,
  ];
  if (model !== null) record.env = { ...record.env, ROOST_MODEL: model };
}

/** Whether a job runs the default concierge (made by `asPiConcierge`), not a launch of the person's. */
export function isPiConcierge(record: Pick<JobRecord, "command">): boolean {
  return record.command.includes(conciergeExtensionPath());
}
