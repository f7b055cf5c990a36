import type { Affordance, Observation, WakeReason } from "./types.js";

/** The rendered text of an observation, for a language model; the structured object stays the truth. */

const WHY: Record<WakeReason, string> = {
  start: "the run has started",
  arrived: "you arrived",
  done: "your last action is done",
  failed: "your action failed",
  refused: "your last command was refused",
  message: "someone spoke to you",
  timer: "your sleep is over",
  idle: "a while has passed",
};

export function renderText(o: Observation, affordances: readonly Affordance[]): string {
  const lines: string[] = [];
  const at = o.place.id ? `${o.place.name} (${o.place.cell})` : `open ground at ${o.place.cell}`;
  lines.push(
    `[t=${o.time / 1000}s] You are ${o.you.name} (${o.you.id}, ${o.you.role}) at ${at}. You woke because ${WHY[o.reason]}.`,
  );
  if (o.place.description) lines.push(o.place.description);
  for (const [key, value] of Object.entries(o.place.features))
    lines.push(`Here, ${key}: ${JSON.stringify(value)}.`);
  lines.push(
    `Items here: ${o.place.items.length ? o.place.items.map((i) => `${i.id} (${i.name})`).join(", ") : "none"}.`,
  );
  lines.push(
    `Others here: ${o.place.agents.length ? o.place.agents.map((a) => `${a.name} (${a.id})`).join(", ") : "nobody"}.`,
  );
  if (o.nearby.agents.length || o.nearby.items.length) {
    const seen = [
      ...o.nearby.agents.map((a) => `${a.id} at ${a.cell}`),
      ...o.nearby.items.map((i) => `${i.id} at ${i.cell}`),
    ];
    lines.push(`Nearby: ${seen.join(", ")}.`);
  }
  lines.push(
    `You carry: ${o.you.inventory.length ? o.you.inventory.map((i) => i.id).join(", ") : "nothing"} (room for ${o.you.budgets_left.inventory} more). Messages left: ${o.you.budgets_left.messages}.`,
  );
  for (const b of o.busy)
    lines.push(`Busy: ${b.action} on your ${b.lane} lane until t=${b.until_ms / 1000}s.`);
  for (const r of o.outcomes)
    lines.push(`Your ${r.action} (${r.observation_id}) ${r.result}${r.reason ? `: ${r.reason}` : "."}`);
  for (const m of o.messages)
    lines.push(`${m.from_name} (${m.from}) said at t=${m.sent_ms / 1000}s: "${m.text}"`);
  const objectives = o.objectives.map((g) => {
    const due = g.deadline_ms === null ? "" : `, due t=${g.deadline_ms / 1000}s`;
    return `${g.id} ${g.progress.current}/${g.progress.target} ${g.status}${due} (${g.description})`;
  });
  lines.push(`Objectives: ${objectives.join("; ")}.`);
  const can = affordances.map((a) => {
    const params = Object.entries(a.params).map(([k, v]) => `${k} one of ${v.choices.join("|")}`);
    return params.length ? `${a.action} (${params.join(", ")})` : a.action;
  });
  lines.push(`You can: ${can.length ? can.join("; ") : "nothing right now"}.`);
  lines.push(
    'Answer with exactly one command: {"action": NAME, "args": {...}}, {"sleep_ms": N} or {"noop": true}.',
  );
  return lines.join("\n");
}
