import type { DecisionData, SimEventData } from "./events.js";

/**
 * An event's data as JSON, exactly as JSON.stringify writes it: the log hashes these bytes. Wakes
 * and decisions, two events in three, are written field by field in the order the simulation
 * builds them when every string in them needs no escaping, which takes about half of
 * JSON.stringify's time; anything else goes through JSON.stringify. A field added to a wake or a
 * decision must be added here too (the tests' pinned log hashes tell when it is not).
 */
export function eventDataJson(kind: string, data: object): string {
  if (kind === "wake") {
    const d = data as SimEventData["wake"];
    if (plain(d.agent) && plain(d.observation_id) && plain(d.reason))
      return `{"agent":"${d.agent}","observation_id":"${d.observation_id}","reason":"${d.reason}"}`;
  } else if (kind === "decision") {
    const json = decisionJson(data as DecisionData);
    if (json !== undefined) return json;
  }
  return JSON.stringify(data);
}

/** A decision's data (see decisionFields and Simulation.logDecision), or undefined for JSON.stringify to write. */
function decisionJson(d: DecisionData): string | undefined {
  if (!plain(d.agent) || !plain(d.observation_id)) return undefined;
  let json = `{"agent":"${d.agent}","observation_id":"${d.observation_id}"`;
  if ("action" in d) {
    if (!plain(d.action) || typeof d.args !== "object" || d.args === null) return undefined;
    json += `,"action":"${d.action}","args":${JSON.stringify(d.args)}`;
  } else if ("sleep_ms" in d) {
    if (!Number.isFinite(d.sleep_ms)) return undefined;
    json += `,"sleep_ms":${d.sleep_ms}`;
  } else if (d.noop === true) json += `,"noop":true`;
  else return undefined;
  if (d.expired !== undefined) {
    if (d.expired !== true) return undefined;
    json += `,"expired":true`;
  }
  if (d.refused !== undefined) {
    if (!plain(d.refused)) return undefined;
    json += `,"refused":"${d.refused}"`;
  }
  if (d.wakes_at_ms !== undefined) {
    if (!Number.isFinite(d.wakes_at_ms)) return undefined;
    json += `,"wakes_at_ms":${d.wakes_at_ms}`;
  }
  return `${json}}`;
}

/** Characters JSON.stringify escapes in a string: quote, backslash, controls, and (unpaired) surrogates. */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string JSON.stringify writes as it is, between quotes. */
function plain(value: unknown): value is string {
  return typeof value === "string" && !ESCAPED.test(value);
}
