import type { OpHandler } from "./context.js";

/** The agents' ops: hello, report and ack, answered by the job's agent connections. */
export const hello: OpHandler<"hello"> = ({ agents }, caller, args) => agents.hello(caller, args);
export const report: OpHandler<"report"> = ({ agents }, caller, args) => agents.report(caller, args);
export const ack: OpHandler<"ack"> = ({ agents }, caller, args) => agents.ack(caller, args);
