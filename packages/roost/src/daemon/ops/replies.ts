import type { OpHandler } from "./context.js";

export const reply: OpHandler<"reply"> = ({ replies }, _caller, args) => replies.reply(args);
