import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RunEvent } from "../src/engine/index.js";
import { Run } from "../src/engine/run.js";
import { findScenario, SCENARIOS } from "../src/scenarios/index.js";
import { eventSentence, rawFields } from "../src/web/page/event-sentence.js";
import { RunModel } from "../src/web/page/run-model.js";
import { buildScene } from "../src/web/scene.js";

/** Every event of a solved run, each with its sentence as the log shows it once the event is applied. */
async function sentencesOf(name: string, seed: number): Promise<{ event: RunEvent; sentence: string }[]> {
  const run = new Run({ runId: "r", scenario: findScenario(name)!, seed, npcPolicy: "solution", pace: null });
  run.start();
  await run.whenEnded();
  const model = new RunModel(buildScene(run.id, run.scenario, run.seed, run.agents()));
  return run.events(0).map((event) => {
    model.apply(event);
    return { event, sentence: eventSentence(event, model) };
  });
}

describe("the event log's sentences", () => {
  for (const { name } of SCENARIOS) {
    it(`reads every event of a solved ${name} run as a sentence with no raw field, no hole`, async () => {
      for (const { event, sentence } of await sentencesOf(name, 3)) {
        const where = `#${event.cursor} ${event.kind}: ${sentence}`;
        assert.doesNotMatch(sentence, /undefined|null|NaN|\[object/, where);
        // Times read t=…s, as everywhere; any other "=" would be a raw field.
        if (event.kind !== "message") assert.doesNotMatch(sentence.replace(/t=[\d.]+s/g, ""), /=/, where);
        const who = event.data.agent ?? event.data.from;
        if (typeof who === "string") assert.ok(sentence.startsWith(who), where);
      }
    });
  }

  it("says who took what where, who went where, and what a message said, word for word", async () => {
    const seen = await sentencesOf("bridge_repair", 3);
    const sentences = seen.map((s) => s.sentence);
    assert.ok(sentences.includes("engineer-1 took toolbox-1 at the workshop"), sentences.join("\n"));
    assert.ok(
      sentences.some((s) => /^courier-1 arrived at the (sawmill|woodpile|old barn|boatshed)$/.test(s)),
    );
    assert.ok(sentences.includes("the run started"));
    const message = seen.find((s) => s.event.kind === "message")!;
    assert.equal(
      message.sentence,
      `${message.event.data.from} said to ${message.event.data.to}: “${message.event.data.text}”`,
    );
  });

  it("keeps the raw form: every field as key=value", () => {
    const event = {
      cursor: 7,
      sim: true,
      sim_time_ms: 3200,
      kind: "took",
      data: { agent: "engineer-1", item: "toolbox-1" },
    } as unknown as RunEvent;
    assert.equal(rawFields(event), "agent=engineer-1 item=toolbox-1");
    // Without a model to say where, the sentence leaves the place out rather than guess it.
    assert.equal(eventSentence(event), "engineer-1 took toolbox-1");
  });
});
