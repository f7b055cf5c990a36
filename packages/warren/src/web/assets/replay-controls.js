// Replay of a run from its beginning: play, pause, step, scrub and speed, over the run's events.
(() => {
  const viewer = (globalThis.WarrenViewer ??= {});
  const { el, seconds } = viewer;

  const SPEEDS = [1, 2, 5, 10, 20, 50, 100];

  class ReplayPlayer {
    /** Starts at the end of the run (its final state); play starts over from the beginning. */
    constructor(container, { scene, events, changes, onModel }) {
      this.scene = scene;
      this.changes = changes;
      this.events = events;
      this.onModel = onModel;
      this.playing = false;
      this.speed = 5;
      this.playButton = el(
        "button",
        { type: "button", class: "play", onclick: () => this.toggle(), title: "play or pause (space)" },
        "Play",
      );
      this.stepButton = el(
        "button",
        { type: "button", onclick: () => this.step(), title: "next event (→ or .)" },
        "Step",
      );
      this.restartButton = el(
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
          onchange: () => (this.speed = Number(this.speedSelect.value)),
        },
        SPEEDS.map((s) => el("option", { value: s, selected: s === this.speed }, `${s}×`)),
      );
      this.position = el("span", { class: "position", "aria-live": "off" });
      container.replaceChildren(
        el("span", { class: "replay-label" }, "Replay"),
        this.restartButton,
        this.playButton,
        this.stepButton,
        this.scrub,
        el("label", {}, "speed ", this.speedSelect),
        this.position,
      );
      container.hidden = false;
      this.seek(events.length);
    }

    get time() {
      return this.clock;
    }

    toggle() {
      if (this.playing) return this.pause();
      if (this.index >= this.events.length) this.seek(0);
      this.playing = true;
      this.lastWall = performance.now();
      this.playButton.textContent = "Pause";
    }

    pause() {
      this.playing = false;
      this.playButton.textContent = "Play";
    }

    step() {
      this.pause();
      if (this.index >= this.events.length) return;
      this.model.apply(this.events[this.index++]);
      this.clock = this.model.simTime;
      this.showPosition();
    }

    /** Shows the run after its first `index` events. */
    seek(index) {
      const target = Math.max(0, Math.min(this.events.length, index));
      if (!this.model || target < this.index) {
        this.model = new viewer.RunModel(this.scene, { changes: this.changes });
        this.index = 0;
        this.onModel(this.model);
      }
      while (this.index < target) this.model.apply(this.events[this.index++]);
      this.clock = this.model.simTime;
      this.showPosition();
    }

    changeSpeed(direction) {
      const i = SPEEDS.indexOf(this.speed) + direction;
      if (i < 0 || i >= SPEEDS.length) return;
      this.speed = SPEEDS[i];
      this.speedSelect.value = String(this.speed);
    }

    /** Moves the replay clock on by the wall time since the last frame. */
    tick(now) {
      if (!this.playing) return;
      this.clock += (now - this.lastWall) * this.speed;
      this.lastWall = now;
      const before = this.index;
      while (this.index < this.events.length && this.events[this.index].sim_time_ms <= this.clock) {
        this.model.apply(this.events[this.index++]);
      }
      if (this.index >= this.events.length) {
        this.clock = this.model.simTime;
        this.pause();
      }
      if (this.index !== before) this.showPosition();
    }

    showPosition() {
      this.scrub.value = String(this.index);
      this.position.textContent = `event ${this.index} of ${this.events.length}, ${seconds(this.clock)}`;
    }
  }

  viewer.ReplayPlayer = ReplayPlayer;
})();
