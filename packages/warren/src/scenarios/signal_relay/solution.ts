import type { SolutionRunner } from "../../engine/scenario.js";
import type { Decision, Observation } from "../../engine/types.js";
import { act, bodyBusy, NOOP, objectiveDone, sleep } from "../observing.js";

const CODE_IN_TEXT = /\b(\d{4})\b/;

/** The keeper reads the posted code and tells the runner, once. */
function keeper(): SolutionRunner {
  let told = false;
  return {
    decide(o: Observation): Decision {
      if (told || objectiveDone(o, "open_gate")) return NOOP;
      const note = String(o.place.features.note ?? "");
      const code = CODE_IN_TEXT.exec(note)?.[1];
      if (!code) return NOOP;
      told = true;
      return act("message", { to: "runner-1", text: `The gate code is ${code}.` });
    },
  };
}

/** The runner walks to the gate and waits there until someone tells it the code. */
function runner(): SolutionRunner {
  let code: string | undefined;
  return {
    decide(o: Observation): Decision {
      for (const m of o.messages) code = CODE_IN_TEXT.exec(m.text)?.[1] ?? code;
      if (objectiveDone(o, "open_gate")) return NOOP;
      if (bodyBusy(o)) return sleep(10_000);
      if (o.you.place !== "gate") return act("move_to", { dest: "gate" });
      return code ? act("enter_code", { code }) : sleep(10_000);
    },
  };
}

export function signalRelaySolution(agentId: string): SolutionRunner {
  if (agentId === "keeper-1") return keeper();
  if (agentId === "runner-1") return runner();
  throw new Error(`signal_relay has no agent ${agentId}`);
}
