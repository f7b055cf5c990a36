/**
 * An event of the run as a sentence a person reads ("engineer-1 took toolbox-1 at the workshop"),
 * and as its raw key=value fields. Pure: the event log calls it, and Node tests run it as it is.
 * Text from agents (a message) stays text: the log puts sentences in as text, never as markup.
 */
import type { EventKind, EventOf, RunEvent } from "../../engine/events.js";
import type { ArgValue, ToolArgs, WakeReason } from "../../engine/types.js";
import type { RunModel } from "./run-model.js";
import { seconds } from "./sim-seconds.js";

/** Characters of one field, or of a quoted message, shown. */
const MAX_FIELD = 160;

const cut = (text: string): string => (text.length > MAX_FIELD ? `${text.slice(0, MAX_FIELD)}…` : text);

/** Why an agent woke, said of it (the engine's own words, in the third person). */
const WOKE: Record<WakeReason, string> = {
  start: "the run has started",
  arrived: "it arrived",
  done: "its last action is done",
  failed: "its action failed",
  refused: "its last command was refused",
  message: "someone spoke to it",
  timer: "its sleep is over",
  idle: "a while has passed",
};

/** Fields as key=value, the way the engine logs them. */
function fieldsText(data: object): string {
  const parts = [];
  for (const [key, value] of Object.entries(data)) {
    if (key === "objectives" || key === "scores") continue;
    parts.push(`${key}=${cut(typeof value === "string" ? value : JSON.stringify(value))}`);
  }
  return parts.join(" ");
}

/** The event's fields as key=value, the way the engine logs them. */
export function rawFields(event: RunEvent): string {
  return fieldsText(event.data);
}

/** An action with its arguments, briefly: "take toolbox-1", "move_to the clinic". */
function actionText(action: string, args: ToolArgs, model: RunModel | undefined): string {
  const values = Object.entries(args).map(([key, value]) =>
    key === "dest" ? placeName(model, value) : typeof value === "string" ? value : JSON.stringify(value),
  );
  return cut([action, ...values].join(" "));
}

/** A place's name for its id or its cell ("the workshop"), else the cell itself. */
function placeName(model: RunModel | undefined, where: ArgValue | null | undefined): string {
  if (typeof where !== "string") return String(where);
  const byId = model?.places.get(where);
  if (byId) return byId.name;
  for (const place of model?.places.values() ?? []) if (place.cell === where) return place.name;
  return where;
}

/** A kind's sentence from its event's data (the model names places, and where an item was taken). */
type Sentence<K extends EventKind> = (
  d: EventOf<K>["data"],
  model: RunModel | undefined,
  event: EventOf<K>,
) => string;

const SENTENCES: { [K in EventKind]?: Sentence<K> } = {
  status: (d) =>
    d.status === "running"
      ? "the run started"
      : `the run ${d.status === "crashed" ? "crashed" : `ended ${d.status}`}${d.reason ? `: ${d.reason}` : ""}`,
  run_started: (d) => `${d.scenario} began with seed ${d.seed}`,
  run_ended: (d) => `the world stopped: ${d.status}${d.reason ? ` (${d.reason})` : ""}`,
  wake: (d) => `${d.agent} woke: ${WOKE[d.reason] ?? d.reason}`,
  decision: (d, model) => {
    const chose =
      d.action !== undefined
        ? `chose ${actionText(d.action, d.args, model)}`
        : d.sleep_ms !== undefined
          ? `chose to sleep ${d.sleep_ms / 1000} s`
          : "chose to wait";
    const late = d.expired ? " (too late: a noop was recorded)" : "";
    const refused = d.refused !== undefined ? ` — refused: ${cut(d.refused)}` : "";
    return `${d.agent} ${chose}${late}${refused}`;
  },
  verdict: (d) =>
    `${d.agent}'s command ${d.command_id} was ${d.status}${d.detail ? `: ${cut(d.detail)}` : ""}`,
  expired: (d) => `${d.agent} did not answer in time: a noop was recorded`,
  action_started: (d, model) =>
    d.action === "move_to"
      ? `${d.agent} set off for ${placeName(model, d.args.dest)}, there at ${seconds(d.until_ms)}`
      : `${d.agent} began ${actionText(d.action, d.args, model)}, done at ${seconds(d.until_ms)}`,
  action_ended: (d) => `${d.agent} ${d.result === "failed" ? "failed at" : "finished"} ${d.action}`,
  arrived: (d, model) => `${d.agent} arrived at ${placeName(model, d.place ?? d.cell)}`,
  took: (d, model, event) => {
    const cell = model?.tookAt.get(event.cursor);
    return `${d.agent} took ${d.item}${cell ? ` at ${placeName(model, cell)}` : ""}`;
  },
  dropped: (d, model) => `${d.agent} put down ${d.item} at ${placeName(model, d.cell)}`,
  message: (d) => `${d.from} said to ${d.to}: “${cut(d.text)}”`,
  credit: (d) => `${d.agent} earned credit: ${d.what}`,
  objective: (d) =>
    `objective ${d.id} ${d.status === "pending" ? "at" : `${d.status},`} ${d.current}/${d.target}${d.by ? ` (by ${d.by})` : ""}${d.reason ? `: ${d.reason}` : ""}`,
  bridge_opened: (d, model) => `the way across at ${placeName(model, d.cell)} is open`,
  lost: (d) => `${d.agent} lost ${d.item} in the ${d.where}`,
  bolted: (d) => `${d.item} bolted away from ${d.agent}, outside the pen`,
  spoiled: (d) => `${d.item} spoiled: ${d.agent} put it down away from the market`,
  misdelivered: (d, model) =>
    `${d.agent} left ${d.item} at ${placeName(model, d.at)}, but it is addressed to ${placeName(model, d.address)}`,
  lever_pulled: (d) => `${d.agent} pulled the ${d.bank} lever of spillway ${d.spillway}`,
  spillway_opened: (d) => `spillway ${d.spillway} opened`,
  wrong_code: (d) => `${d.agent} entered the wrong code ${d.code}`,
  gate_opened: (d) => `${d.agent} opened the gate`,
};

/**
 * The event as a sentence, without its time. `model` (the run model) names places and where an
 * item was taken; a kind with no sentence of its own reads "who: kind (fields)".
 */
export function eventSentence(event: RunEvent, model?: RunModel): string {
  // Each kind's sentence takes its own kind's event: the one looked up by the event's kind.
  const say = SENTENCES[event.kind] as Sentence<EventKind> | undefined;
  if (say) return say(event.data, model, event);
  const { agent, ...rest } = event.data;
  const who = agent ?? event.data.from;
  const fields = fieldsText(rest);
  return `${who ? `${who}: ` : ""}${event.kind.replace(/_/g, " ")}${fields ? ` (${fields})` : ""}`;
}
