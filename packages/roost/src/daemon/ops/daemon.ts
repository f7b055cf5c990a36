import type { OpHandler } from "./context.js";

/**
 * Answered once the daemon has let go of its jobs (with `all`: once they and the process host have
 * ended); the daemon closes every connection and exits just after.
 */
export const shutdown: OpHandler<"shutdown"> = async ({ daemon }, _caller, args) => {
  await daemon.shutdown(args.all ?? false);
  return {};
};

export const stats: OpHandler<"stats"> = ({ daemon }, caller) => daemon.stats(caller);

export const notifyTest: OpHandler<"notify-test"> = ({ notifier }) => notifier.test();
