import type { Envelope, Observation } from "../../src/engine/index.js";
import { RESIDENTS } from "../../src/scenarios/parcel_dispatch/map.js";
import { act, wait, walking } from "./decisions.js";
import type { PlayerFactory } from "./discrimination.js";

/**
 * A sensible player for every role of every scenario, written from the briefing (its notes and
 * role notes) and what observations show, not from the solution runners: what a careful person
 * would do on reading the instructions.
 */

const held = (o: Observation, kind: string) =>
  o.you.inventory.filter((i) => i.kind === kind).map((i) => i.id);
const here = (o: Observation, kind: string) => o.place.items.filter((i) => i.kind === kind).map((i) => i.id);
const done = (o: Observation, id: string) => o.objectives.find((g) => g.id === id)?.status === "completed";

const STACKS = ["sawmill", "woodpile", "barn", "boatshed"];

/** The engineer: toolbox in hand, stand at the bridge, repair whenever a plank lies there. Never put the toolbox down. */
const engineer: PlayerFactory =
  () =>
  ({ observation: o }: Envelope) => {
    if (done(o, "repair") || walking(o)) return wait(2000);
    if (held(o, "toolbox").length === 0) {
      const toolbox = here(o, "toolbox")[0];
      return toolbox ? act("take", { item: toolbox }) : act("move_to", { dest: "workshop" });
    }
    if (o.you.place !== "bridge") return act("move_to", { dest: "bridge" });
    return here(o, "plank").length > 0 ? act("repair") : wait(1000);
  };

/** The lookout: read the storm log, keep the stacks the weather did not reach, tell the courier once. */
const lookout: PlayerFactory = () => {
  let told = false;
  return ({ observation: o }: Envelope) => {
    const log = o.place.features.storm_log;
    if (told || typeof log !== "string") return told ? { kind: "noop" } : wait(1000);
    const dry = log
      .split("; ")
      .filter((entry) => /held|tight roof|kept the rain off|high ground/.test(entry))
      .map((entry) => entry.split(":")[0]);
    told = true;
    return act("message", { to: "courier-1", text: `Sound planks: ${dry.join(", ")}` });
  };
};

/** The courier: wait for the lookout's word, fetch the planks, hand them over only with the engineer there, then the medkits. */
const courier: PlayerFactory = () => {
  const unvisited: string[] = [];
  let laid = 0;
  return ({ observation: o }: Envelope) => {
    for (const m of o.messages)
      for (const s of STACKS) if (m.text.includes(s) && !unvisited.includes(s)) unvisited.push(s);
    if (walking(o)) return wait(2000);
    const planks = held(o, "plank");
    // The medkits are where the courier starts: take them now rather than come back for them.
    if (o.you.place === "depot" && here(o, "medkit").length > 0)
      return act("take", { item: here(o, "medkit")[0]! });
    if (!done(o, "repair")) {
      const plank = o.you.place !== "bridge" ? here(o, "plank")[0] : undefined;
      if (plank) return act("take", { item: plank });
      const next = unvisited.find((s) => s !== o.you.place && planks.length + laid < 2);
      if (o.you.place && unvisited.includes(o.you.place)) unvisited.splice(unvisited.indexOf(o.you.place), 1);
      if (next && unvisited.includes(next)) return act("move_to", { dest: next });
      if (planks.length === 0) return wait(1000);
      if (o.you.place !== "bridge") return act("move_to", { dest: "bridge" });
      if (!o.place.agents.some((a) => a.id === "engineer-1")) return wait(500);
      laid++;
      return act("drop", { item: planks[0]! });
    }
    const medkits = held(o, "medkit");
    if (o.you.place === "depot" && here(o, "medkit").length > 0)
      return act("take", { item: here(o, "medkit")[0]! });
    if (medkits.length > 0)
      return o.you.place === "clinic"
        ? act("drop", { item: medkits[0]! })
        : act("move_to", { dest: "clinic" });
    return done(o, "resupply") ? { kind: "noop" } : act("move_to", { dest: "depot" });
  };
};

/** The runner: go to the gate, tell the keeper its plate, type the code that comes back. */
const runner: PlayerFactory = () => {
  let asked = false;
  return ({ observation: o }: Envelope) => {
    const code = o.messages.map((m) => /\b(\d{4})\b/.exec(m.text)?.[1]).find(Boolean);
    if (walking(o) || done(o, "open_gate")) return wait(1000);
    if (o.you.place !== "gate") return act("move_to", { dest: "gate" });
    if (code) return act("enter_code", { code });
    if (asked) return wait(1000);
    asked = true;
    return act("message", {
      to: "keeper-1",
      text: `I am at the gate; its plate reads "${String(o.place.features.plate)}".`,
    });
  };
};

/** The keeper: look up the plate the runner names in the code book and send its code back. */
const keeper: PlayerFactory =
  () =>
  ({ observation: o }: Envelope) => {
    const book = new Map(
      String(o.place.features.code_book ?? "")
        .split(", ")
        .map((entry) => entry.split(" ") as [string, string]),
    );
    for (const m of o.messages) {
      const plate = [...book.keys()].find((p) => m.text.toLowerCase().includes(p));
      if (plate) return act("message", { to: "runner-1", text: `Code for ${plate}: ${book.get(plate)}` });
    }
    return { kind: "noop" };
  };

/** A farmer: read the rota, shuttle two crates at a time from its own field to the market. */
function farmer(agentId: string): PlayerFactory {
  return () => {
    let field: string | undefined;
    let fieldCell: string | undefined;
    return ({ observation: o }: Envelope) => {
      const rota = o.place.features.rota as Record<string, string> | undefined;
      if (rota) field = rota[agentId];
      fieldCell ??= o.nearby.places.find((p) => p.id === field)?.cell;
      if (walking(o)) return wait(2000);
      const crates = held(o, "crate");
      if (o.you.place === "market") {
        if (crates.length > 0) return act("drop", { item: crates[0]! });
        const left = o.nearby.items.some((i) => i.kind === "crate" && i.cell === fieldCell);
        return left && field ? act("move_to", { dest: field }) : { kind: "noop" };
      }
      const crate = here(o, "crate")[0];
      if (crate && o.you.budgets_left.inventory > 0) return act("take", { item: crate });
      return act("move_to", { dest: "market" });
    };
  };
}

/** The dispatcher: look up each parcel's household in the directory and send each courier one side of town. */
const dispatcher: PlayerFactory = () => {
  const sent: string[] = [];
  const houseOf = new Map(Object.entries(RESIDENTS).map(([house, family]) => [family, house]));
  return ({ observation: o }: Envelope) => {
    const ledger = o.place.features.ledger as Record<string, string> | undefined;
    const to = ["courier-1", "courier-2"].find((c) => !sent.includes(c));
    if (!ledger || !to) return { kind: "noop" };
    sent.push(to);
    const west = (house: string) => "abcd".includes(house.slice(-1));
    const mine = Object.entries(ledger)
      .map(([parcel, whom]) => [parcel, houseOf.get(whom.replace(/^for /, ""))!])
      .filter(([, house]) => west(house!) === (to === "courier-1"));
    return act("message", { to, text: `Your round: ${mine.map(([p, h]) => `${p} to ${h}`).join(", ")}` });
  };
};

/** A courier: two of its own parcels at a time, each to the house the dispatcher named, then back for more. */
const parcelCourier: PlayerFactory = () => {
  const address = new Map<string, string>();
  const delivered = new Set<string>();
  return ({ observation: o }: Envelope) => {
    for (const m of o.messages)
      for (const [, parcel, house] of m.text.matchAll(/(parcel-\d+) to (house_[a-h])/g))
        address.set(parcel!, house!);
    if (walking(o)) return wait(1000);
    const carried = held(o, "parcel");
    const drop = carried.find((p) => address.get(p) === o.you.place);
    if (drop) {
      delivered.add(drop);
      return act("drop", { item: drop });
    }
    const mine = here(o, "parcel").filter((p) => address.has(p));
    if (o.you.place === "post_office" && mine.length > 0 && carried.length < 2)
      return act("take", { item: mine[0]! });
    if (carried.length > 0) return act("move_to", { dest: address.get(carried[0]!)! });
    if (address.size === 0 || delivered.size === address.size) return wait(1000);
    return o.you.place === "post_office" ? wait(1000) : act("move_to", { dest: "post_office" });
  };
};

/** The spotter: climb each cairn, turn the bearings seen from it into cells, west ones to shepherd-1, east to shepherd-2. */
const spotter: PlayerFactory = () => {
  const called = new Set<string>();
  const cairns = ["se_cairn", "sw_cairn", "nw_cairn", "ne_cairn"];
  return ({ observation: o }: Envelope) => {
    if (walking(o)) return wait(1000);
    const [cx, cy] = o.place.cell.split(":")[1]!.split(",").map(Number) as [number, number];
    const seen = String(o.place.features.over_the_fog ?? "")
      .split("; ")
      .filter((s) => s.startsWith("a sheep"))
      .map((s) => {
        const n = (way: string) => Number(new RegExp(`(\\d+) ${way}`).exec(s)?.[1] ?? 0);
        return `moor:${cx + n("east") - n("west")},${cy + n("south") - n("north")}`;
      })
      .filter((c) => !called.has(c));
    for (const [to, west] of [
      ["shepherd-1", true],
      ["shepherd-2", false],
    ] as const) {
      const cells = seen.filter((c) => Number(/moor:(\d+),/.exec(c)![1]) < 8 === west);
      if (cells.length === 0) continue;
      for (const c of cells) called.add(c);
      return act("message", { to, text: `Sheep at ${cells.join(" and ")}` });
    }
    if (o.you.place && cairns.includes(o.you.place)) cairns.splice(cairns.indexOf(o.you.place), 1);
    return cairns.length > 0 ? act("move_to", { dest: cairns[0]! }) : { kind: "noop" };
  };
};

/** A shepherd: walk to each cell the spotter calls, in the order called, and carry the sheep there to the pen. */
const shepherd: PlayerFactory = () => {
  const cells: string[] = [];
  return ({ observation: o }: Envelope) => {
    for (const m of o.messages) for (const c of m.text.match(/moor:\d+,\d+/g) ?? []) cells.push(c);
    if (walking(o)) return wait(1000);
    const sheep = held(o, "sheep")[0];
    if (sheep) return o.you.place === "pen" ? act("drop", { item: sheep }) : act("move_to", { dest: "pen" });
    const lying = here(o, "sheep")[0];
    if (lying) return act("take", { item: lying });
    if (cells[0] === o.you.cell) cells.shift();
    if (cells.length > 0) return act("move_to", { dest: cells[0]! });
    return o.you.place === "pen" ? wait(2000) : act("move_to", { dest: "pen" });
  };
};

/** The supervisor: the spillways whose gauges read above the red line, highest first, told to both operators. */
const supervisor: PlayerFactory = () => {
  let told = 0;
  return ({ observation: o }: Envelope) => {
    const { gauges, red_line } = o.place.features;
    if (typeof gauges !== "string" || typeof red_line !== "string" || told >= 2) return { kind: "noop" };
    const line = Number.parseFloat(red_line);
    const order = gauges
      .split(", ")
      .map((g) => /spillway (\d): ([\d.]+) m/.exec(g)!)
      .filter((m) => Number(m[2]) > line)
      .sort((a, b) => Number(b[2]) - Number(a[2]))
      .map((m) => m[1]);
    const to = told++ === 0 ? "operator-s" : "operator-n";
    return act("message", { to, text: `Release order: ${order.join(", ")}` });
  };
};

/** An operator: to each spillway's lever in order, say "ready for spillway K", pull once the other is ready too. */
function damOperator(bank: string, partner: string): PlayerFactory {
  return () => {
    let order: number[] = [];
    const othersReady = new Set<number>();
    const said = new Set<number>();
    return ({ observation: o }: Envelope) => {
      for (const m of o.messages) {
        const digits = /order: ([\d, ]+)/i.exec(m.text)?.[1];
        if (digits) order = digits.split(",").map((d) => Number(d.trim()));
        const ready = /ready for spillway (\d)/.exec(m.text)?.[1];
        if (ready) othersReady.add(Number(ready));
      }
      const release = o.objectives.find((g) => g.id === "release")!;
      if (walking(o) || order.length === 0 || release.status !== "pending") return wait(1000);
      const spillway = order[release.progress.current]!;
      const lever = `${bank}_lever_${spillway}`;
      if (o.you.place !== lever) return act("move_to", { dest: lever });
      if (!said.has(spillway)) {
        said.add(spillway);
        return act("message", { to: partner, text: `Standing at my lever: ready for spillway ${spillway}` });
      }
      if (othersReady.has(spillway)) {
        othersReady.delete(spillway);
        return act("pull_lever");
      }
      return wait(1000);
    };
  };
}

export const SENSIBLE_PLAYERS: Record<string, Record<string, PlayerFactory>> = {
  bridge_repair: { "engineer-1": engineer, "courier-1": courier, "lookout-1": lookout },
  signal_relay: { "keeper-1": keeper, "runner-1": runner },
  parcel_dispatch: { "dispatcher-1": dispatcher, "courier-1": parcelCourier, "courier-2": parcelCourier },
  fog_search: { "spotter-1": spotter, "shepherd-1": shepherd, "shepherd-2": shepherd },
  dam_release: {
    "supervisor-1": supervisor,
    "operator-n": damOperator("north", "operator-s"),
    "operator-s": damOperator("south", "operator-n"),
  },
  harvest_rush: {
    "farmer-1": farmer("farmer-1"),
    "farmer-2": farmer("farmer-2"),
    "farmer-3": farmer("farmer-3"),
  },
};
