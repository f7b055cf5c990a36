import type { DaemonClient } from "../../client/daemon-client.js";
import {
  ANSWER_POLICIES,
  type ConciergeStatus,
  RoostError,
  type StandingOrder,
  terminalSafe,
} from "../../protocol/index.js";
import type { Command } from "../command.js";

const USAGE =
  "concierge on|off|status | ask TEXT | answer never|routine|always | act on|off | undo | orders [add WHEN TEXT | rm ID] [--json]";

function usage(message: string): RoostError {
  return new RoostError("bad_request", `${message}\nusage: roost ${USAGE}`);
}

/** How the concierge stands, on one line. */
export function statusLine(status: ConciergeStatus): string {
  const state = status.failed !== null ? "failed" : status.running ? "on" : "off";
  const job = status.job
    ? `${state} (${status.job.name} ${status.job.id}, ${status.job.lifecycle})`
    : "off (no job)";
  const why =
    status.failed !== null
      ? `; why: ${status.failed}; \`roost concierge on\` starts it again`
      : !status.running && status.unavailable !== null
        ? `; cannot run: ${status.unavailable}`
        : "";
  const { answer, act } = status.policy;
  return terminalSafe(
    `concierge ${job}; answers: ${answer}; acts: ${act ? "on" : "off"}; answered ${status.answered}; orders ${status.orders}${why}`,
  );
}

/** A standing order on one line: id, clock, who gave it, how often it was applied, its text (safe for the terminal). */
export function orderLine(order: StandingOrder): string {
  const clock = order.when ? `${order.when}, next ${order.nextAt}` : "standing";
  return terminalSafe(`#${order.id}  [${clock}]  by ${order.by}, applied ${order.count}x  ${order.text}`);
}

function needs(rest: string[], count: number, what: string): void {
  if (rest.length !== count) throw usage(what);
}

export const concierge: Command = {
  name: "concierge",
  usage: USAGE,
  summary:
    "The concierge, the agent that watches the fleet for you: turns it on or off, asks it, sets what it may do (answer questions, act), undoes its last answer, keeps standing orders (WHEN as a schedule's, or - for none).",
  positionals: [1, 4],
  run: async ({ positionals, client, print }) => {
    const [action, ...rest] = positionals;
    const c = await client();
    switch (action) {
      case "on":
      case "off":
      case "status":
      case "undo": {
        needs(rest, 0, `${action} takes no arguments`);
        const status = await c.call("concierge", { action });
        print(
          action === "undo" ? `withdrew its last answer; ${statusLine(status)}` : statusLine(status),
          status,
        );
        return 0;
      }
      case "ask": {
        needs(rest, 1, "ask takes the text");
        const result = await c.call("concierge-ask", { text: rest[0]! });
        print("asked the concierge", result);
        return 0;
      }
      case "answer": {
        const answer = rest[0];
        if (rest.length !== 1 || !(ANSWER_POLICIES as readonly string[]).includes(answer!))
          throw usage(`answer takes one of ${ANSWER_POLICIES.join(", ")}`);
        const status = await c.call("concierge", { action: "answer", answer: answer as "never" });
        print(statusLine(status), status);
        return 0;
      }
      case "act": {
        if (rest.length !== 1 || (rest[0] !== "on" && rest[0] !== "off")) throw usage("act takes on or off");
        const status = await c.call("concierge", { action: "act", act: rest[0] === "on" });
        print(statusLine(status), status);
        return 0;
      }
      case "orders":
        return orders(rest, c, print);
      default:
        throw usage(`unknown action ${JSON.stringify(action)}`);
    }
  },
};

async function orders(
  rest: string[],
  c: DaemonClient,
  print: (human: string, value: unknown) => void,
): Promise<number> {
  const [action = "list", ...args] = rest;
  if (action === "list" || action === "ls") {
    needs(args, 0, "orders takes no arguments to list them");
    const result = await c.call("concierge-order", { action: "list" });
    print(result.orders.length ? result.orders.map(orderLine).join("\n") : "no standing orders", result);
    return 0;
  }
  if (action === "add") {
    needs(args, 2, "orders add takes WHEN (or - for none) and the order's TEXT");
    const [when, text] = args as [string, string];
    const result = await c.call("concierge-order", {
      action: "add",
      text,
      ...(when === "-" ? {} : { when }),
    });
    print(`kept ${orderLine(result.order!)}`, result);
    return 0;
  }
  if (action === "rm") {
    needs(args, 1, "orders rm takes an order's id");
    const result = await c.call("concierge-order", { action: "rm", id: args[0]!.replace(/^#/, "") });
    print(`dropped ${orderLine(result.order!)}`, result);
    return 0;
  }
  throw usage(`unknown orders action ${JSON.stringify(action)}`);
}
