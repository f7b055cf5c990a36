import type { RunRecord } from "./run-record.js";
import type { RunSpec } from "./sweep-plan.js";

/** What plays a sweep's missing runs and reports each as it finishes. */
export interface RunSink {
  finished(record: RunRecord): void;
  failed(spec: RunSpec, error: string): void;
}
