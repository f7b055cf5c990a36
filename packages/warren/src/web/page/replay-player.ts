/** Replay of a run from its beginning: play, pause, step, scrub and speed, over the run's events. */
import type { RunEvent } from "../../engine/events.js";
import type { Scene, WorldChange } from "../viewer-documents.js";
import { el } from "./dom.js";
import { RunModel } from "./run-model.js";
import { seconds } from "./sim-seconds.js";

const SPEEDS = [1, 2, 5, 10, 20, 50, 100];

export interface ReplayOptions {
  scene: Scene;
  events: RunEvent[];
  changes: WorldChange[];
  /** Each new model the replay starts over with. */
  onModel: (model: RunModel) => void;
}

export class ReplayPlayer {
  readonly events: RunEvent[];
  playing = false;
  speed = 5;
  /** Events applied so far. */
  index = 0;
  model!: RunModel;
  private readonly scene: Scene;
  private readonly changes: WorldChange[];
  private readonly onModel: (model: RunModel) => void;
  private clock = 0;
  private lastWall = 0;
  private readonly playButton: HTMLButtonElement;
  private readonly scrub: HTMLInputElement;
  private readonly speedSelect: HTMLSelectElement;
  private readonly position: HTMLSpanElement;

  /** Starts at the end of the run (its final state); play starts over from the beginning. */
  constructor(container: HTMLElement, { scene, events, changes, onModel }: ReplayOptions) {
    this.scene = scene;
    this.changes = changes;
    this.events = events;
    this.onModel = onModel;
    this.playButton = el(
      "button",
      { type: "button", class: "play", onclick: () => this.toggle(), title: "play or pause (space)" },
      "Play",
    );
    const stepButton = el(
      "button",
      { type: "button", onclick: () => this.step(), title: "next event (→ or .)" },
      "Step",
    );
    const restartButton = el(
      "button",
      { type: "button", onclick: () => this.seek(0), title: "back to the start (Home)" },
      "Start",
    );
    this.scrub = el("input", {
      type: "range",
      min: 0,
      max: events.length,
      value: events.length,
      "aria-label": "position in the run (events applied)",
      oninput: () => this.seek(Number(this.scrub.value)),
    });
    this.speedSelect = el(
      "select",
      {
        "aria-label": "replay speed (sim seconds per second)",
        onchange: () => {
          this.speed = Number(this.speedSelect.value);
        },
      },
      SPEEDS.map((s) => el("option", { value: s, selected: s === this.speed }, `${s}×`)),
    );
    this.position = el("span", { class: "position", "aria-live": "off" });
    container.replaceChildren(
      el("span", { class: "replay-label" }, "Replay"),
      restartButton,
      this.playButton,
      stepButton,
      this.scrub,
      el("label", {}, "speed ", this.speedSelect),
      this.position,
    );
    container.hidden = false;
    this.seek(events.length);
  }

  /** The replay's sim time. */
  get time(): number {
    return this.clock;
  }

  toggle(): void {
    if (this.playing) {
      this.pause();
      return;
    }
    if (this.index >= this.events.length) this.seek(0);
    this.playing = true;
    this.lastWall = performance.now();
    this.playButton.textContent = "Pause";
  }

  pause(): void {
    this.playing = false;
    this.playButton.textContent = "Play";
  }

  step(): void {
    this.pause();
    if (this.index >= this.events.length) return;
    this.model.apply(this.events[this.index++]!);
    this.clock = this.model.simTime;
    this.showPosition();
  }

  /** Shows the run after its first `index` events. */
  seek(index: number): void {
    const target = Math.max(0, Math.min(this.events.length, index));
    if (!this.model || target < this.index) {
      this.model = new RunModel(this.scene, { changes: this.changes });
      this.index = 0;
      this.onModel(this.model);
    }
    while (this.index < target) this.model.apply(this.events[this.index++]!);
    this.clock = this.model.simTime;
    this.showPosition();
  }

  changeSpeed(direction: number): void {
    const i = SPEEDS.indexOf(this.speed) + direction;
    if (i < 0 || i >= SPEEDS.length) return;
    this.speed = SPEEDS[i]!;
    this.speedSelect.value = String(this.speed);
  }

  /** Moves the replay clock on by the wall time since the last frame. */
  tick(now: number): void {
    if (!this.playing) return;
    this.clock += (now - this.lastWall) * this.speed;
    this.lastWall = now;
    const before = this.index;
    while (this.index < this.events.length && this.events[this.index]!.sim_time_ms <= this.clock) {
      this.model.apply(this.events[this.index++]!);
    }
    if (this.index >= this.events.length) {
      this.clock = this.model.simTime;
      this.pause();
    }
    if (this.index !== before) this.showPosition();
  }

  private showPosition(): void {
    this.scrub.value = String(this.index);
    this.position.textContent = `event ${this.index} of ${this.events.length}, ${seconds(this.clock)}`;
  }
}
