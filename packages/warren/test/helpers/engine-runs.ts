import assert from "node:assert/strict";
import {
  type Decision,
  decisionFields,
  type Envelope,
  ManualClock,
  type NpcPolicy,
  playHeadless,
  type Receipt,
  Run,
  type RunSummary,
  type ScenarioDefinition,
} from "../../src/engine/index.js";
import { findScenario } from "../../src/scenarios/index.js";

export interface RemoteRunOptions {
  seed?: number;
  controlled: string[];
  npcPolicy?: NpcPolicy;
  pace?: number | null;
  decisionTimeoutMs?: number;
  maxSimMs?: number;
  maxWallMs?: number;
  clock?: ManualClock;
}

/** A started run whose `controlled` agents are remote, on a hand-driven clock. */
export function remoteRun(
  scenario: string | ScenarioDefinition,
  options: RemoteRunOptions,
): { run: Run; clock: ManualClock } {
  const definition = typeof scenario === "string" ? findScenario(scenario) : scenario;
  assert.ok(definition, `scenario ${String(scenario)} exists`);
  const clock = options.clock ?? new ManualClock();
  const run = new Run({
    runId: "run-1",
    scenario: definition,
    seed: options.seed ?? 1,
    controlledAgents: options.controlled,
    npcPolicy: options.npcPolicy ?? "none",
    pace: options.pace ?? null,
    decisionTimeoutMs: options.decisionTimeoutMs,
    maxSimMs: options.maxSimMs,
    maxWallMs: options.maxWallMs,
    clock,
  });
  run.start();
  return { run, clock };
}

let minted = 0;

/** Plays one remote agent by hand: answers its outstanding envelope with fresh command ids. */
export class RemoteAgent {
  constructor(
    readonly run: Run,
    readonly agentId: string,
  ) {}

  envelope(): Envelope {
    const envelope = this.run.outstanding(this.agentId);
    assert.ok(envelope, `${this.agentId} has an outstanding observation`);
    return envelope;
  }

  send(command: Record<string, unknown>): Receipt {
    return this.run.submit(this.agentId, {
      command_id: `c-${++minted}`,
      observation_id: this.envelope().observation_id,
      ...command,
    });
  }

  /** Sends an action that must be accepted, and returns its receipt after adjudication. */
  act(action: string, args: Record<string, unknown> = {}): Receipt {
    const receipt = this.send({ action, args });
    assert.equal(receipt.status, "accepted", receipt.detail);
    return this.run.receipt(this.agentId, receipt.command_id)!;
  }

  /** Sends noops until the agent's observation satisfies `until` (or fails after `limit`). */
  waitFor(until: (envelope: Envelope) => boolean, limit = 50): Envelope {
    for (let i = 0; i < limit; i++) {
      const envelope = this.envelope();
      if (until(envelope)) return envelope;
      this.send({ sleep_ms: 1000 });
    }
    assert.fail(`${this.agentId}: condition not reached`);
  }
}

/** Answers every envelope of `agents` with what `decide` says, through submit: the remote path. */
export function playRemotely(
  run: Run,
  agents: readonly string[],
  decide: (envelope: Envelope) => Decision,
): void {
  let n = 0;
  run.onObservation((envelope) => {
    if (!agents.includes(envelope.agent_id)) return;
    const receipt = run.submit(envelope.agent_id, {
      command_id: `p-${++n}`,
      observation_id: envelope.observation_id,
      ...decisionFields(decide(envelope)),
    });
    assert.equal(receipt.status, "accepted", receipt.detail);
  });
}

/** Runs a scenario with every agent on its solution runner, in process. */
export function headless(scenario: string, seed: number): Promise<RunSummary> {
  return playHeadless(findScenario(scenario)!, seed);
}

/** A one-cell yard with `agents` walkers and `items` pebbles: for budgets and same-millisecond races. */
export function yardScenario(agents: string[], items: number): ScenarioDefinition {
  const base = findScenario("bridge_repair")!;
  return {
    ...base,
    name: "yard",
    timeLimitMs: 30 * 60_000,
    tools: [],
    react: undefined,
    placeFeatures: undefined,
    agents: agents.map((id) => ({ id, name: id.toUpperCase(), role: "walker", start: "yard" })),
    objectives: [{ id: "wait", description: "Wait.", target: 1, deadlineMs: null }],
    steps: 1,
    build(world) {
      world.addSpace("yard", 3, 3);
      world.addPlaceAt("yard", "yard", "the yard", 1, 1, "");
      for (let i = 0; i < items; i++) {
        const id = items === 1 ? "pebble" : `pebble-${String(i).padStart(2, "0")}`;
        world.addItem(
          { id, name: "pebble", kind: "pebble", props: {} },
          { at: "cell", cell: { space: "yard", x: 1, y: 1 } },
        );
      }
    },
    solvableWith: () => false,
  };
}
