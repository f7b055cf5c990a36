import { availableParallelism } from "node:os";
import { parseQueueUrl } from "../../sweep/queue-url.js";
import { type CliCommand, UsageError } from "../command.js";
import { parseCount } from "../parse-count.js";
import { parseOptions } from "../parse-options.js";

export const workerCommand: CliCommand = {
  name: "worker",
  usage: "warren worker --queue redis://H:P [--concurrency N] [--lock-ms MS]",
  summary:
    "Take sweep runs from the Redis queue and play them, N at a time (default: the cores), until stopped.",
  async run(args, io) {
    const { values, positionals } = parseOptions(args, {
      queue: { type: "string" },
      concurrency: { type: "string" },
      "lock-ms": { type: "string" },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const url = values.queue;
    if (typeof url !== "string") throw new UsageError("--queue redis://HOST:PORT is required");
    try {
      parseQueueUrl(url);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const concurrency = parseCount(
      "--concurrency",
      values.concurrency as string | undefined,
      availableParallelism(),
      1,
    );
    const lockText = values["lock-ms"] as string | undefined;
    if (lockText !== undefined && !(/^\d+$/.test(lockText) && Number(lockText) >= 1000)) {
      throw new UsageError(`--lock-ms must be an integer of at least 1000 (got "${lockText}")`);
    }
    // BullMQ and its Redis client load only when a worker starts.
    const { startQueueWorker } = await import("../../sweep/queue-worker.js");
    const worker = await startQueueWorker(url, {
      concurrency,
      lockMs: lockText === undefined ? undefined : Number(lockText),
      log: (line) => io.err(line),
    });
    io.err(`worker: taking runs from ${url}, ${concurrency} at a time`);
    // SIGINT/SIGTERM: runs in hand are finished and handed back before the worker exits.
    await new Promise<void>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
    io.err("worker: stopping after the runs in hand");
    await worker.close();
    return 0;
  },
};
