import type { SolutionRunner } from "../../engine/scenario.js";
import type { Decision, Observation } from "../../engine/types.js";
import { act, bodyBusy, NOOP, objectiveDone, sleep } from "../observing.js";
import { PLATES } from "./map.js";

const CODE_IN_TEXT = /\b(\d{4})\b/;

/** The plate a text names, if any. */
function plateIn(text: string): string | undefined {
  return PLATES.find((p) => new RegExp(`\\b${p}\\b`, "i").test(text));
}

/** The code a code book (`plate 1234, plate 5678, …`) gives for a plate. */
function codeFor(book: string, plate: string): string | undefined {
  return new RegExp(`\\b${plate} (\\d{4})\\b`).exec(book)?.[1];
}

/** The keeper waits for the runner to name the gate's plate, looks it up and answers with the code. */
function keeper(): SolutionRunner {
  let answered: string | undefined;
  return {
    decide(o: Observation): Decision {
      if (objectiveDone(o, "open_gate")) return NOOP;
      const plate = o.messages.map((m) => plateIn(m.text)).find((p) => p !== undefined);
      if (!plate || plate === answered) return NOOP;
      const code = codeFor(String(o.place.features.code_book ?? ""), plate);
      if (!code) return NOOP;
      answered = plate;
      return act("message", { to: "runner-1", text: `The code for ${plate} is ${code}.` });
    },
  };
}

/** The runner walks to the gate, tells the keeper the plate, and types the code it is given. */
function runner(): SolutionRunner {
  let code: string | undefined;
  let asked = false;
  return {
    decide(o: Observation): Decision {
      for (const m of o.messages) code = CODE_IN_TEXT.exec(m.text)?.[1] ?? code;
      if (objectiveDone(o, "open_gate")) return NOOP;
      if (bodyBusy(o)) return sleep(10_000);
      if (o.you.place !== "gate") return act("move_to", { dest: "gate" });
      if (code) return act("enter_code", { code });
      if (asked) return sleep(10_000);
      asked = true;
      return act("message", {
        to: "keeper-1",
        text: `The gate's plate says ${String(o.place.features.plate)}.`,
      });
    },
  };
}

export function signalRelaySolution(agentId: string): SolutionRunner {
  if (agentId === "keeper-1") return keeper();
  if (agentId === "runner-1") return runner();
  throw new Error(`signal_relay has no agent ${agentId}`);
}
