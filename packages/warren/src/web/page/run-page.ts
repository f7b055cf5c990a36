/**
 * One run's page: live while the run goes (spectator stream), then a replay of it from the start.
 * The same page replays the run embedded in a `warren run --html` file.
 */
import type { RunEvent } from "../../engine/events.js";
import { hasEnded } from "../../engine/types.js";
import type { RunView } from "../../protocol/runs.js";
import type * as Documents from "../viewer-documents.js";
import { AgentPanel } from "./agent-panel.js";
import { el } from "./dom.js";
import { EventLog } from "./event-log.js";
import { fetchJson } from "./fetch-json.js";
import { MapView } from "./map-view.js";
import { placeList } from "./place-list.js";
import { ReplayPlayer } from "./replay-player.js";
import { type ModelAgent, RunModel } from "./run-model.js";
import { seconds } from "./sim-seconds.js";
import { SpectatorFeed } from "./spectator-feed.js";

/** How often the clock, objectives and selected agent are redrawn (the maps redraw every frame). */
const PANEL_MS = 200;
/** How often the agent cards and the event log are redrawn while events stream: long lists are costly. */
const LIST_MS = 1000;
/** How often a live page asks for the world (and every other time, who holds the remote agents). */
const POLL_MS = 1000;
/** How soon after an event a live page asks for the run's clock again (at most this often). */
const CLOCK_MS = 150;
/** Frame intervals kept for the benchmark. */
const FRAME_SAMPLES = 3600;

const runPath = (runId: string, rest = ""): string => `/runs/${encodeURIComponent(runId)}${rest}`;

export class RunPage {
  /** "live" while the run streams, "replay" once it has ended, "ended" when it cannot be replayed. */
  mode: "loading" | "live" | "replay" | "ended" = "loading";
  selected: string | null = null;
  model!: RunModel;
  readonly map: MapView;
  player: ReplayPlayer | undefined;
  feed: SpectatorFeed | undefined;
  /** The state the live stream left, to set beside the replay's. */
  liveDigest: ReturnType<RunModel["digest"]> | undefined;
  /** Frame intervals, and the page's own work in each frame (a benchmark reads both). */
  readonly frameTimes: number[] = [];
  readonly frameWork: number[] = [];
  private runId = "";
  private pace: number | null = null;
  private texts: Record<string, string> = {};
  private readonly liveText: { agent?: string; observationId: string | null; text: string; asked: number } = {
    observationId: null,
    text: "",
    asked: 0,
  };
  /** The run's clock as the server last told it, with when the answer came (a live run only). */
  private runClock: (Documents.ClockAnswer & { at: number }) | null = null;
  private clockAsked = false;
  private clockAskedAt = 0;
  private recordAsked: Promise<Documents.RecordAnswer> | undefined;
  private looping = false;
  private panelsAt = 0;
  private listedAt = 0;
  private drawnVersion = -1;
  private listedVersion = -1;
  private placesVersion = -1;
  private readonly status: HTMLSpanElement;
  private readonly reason: HTMLSpanElement;
  private readonly clock: HTMLSpanElement;
  private readonly waiting: HTMLSpanElement;
  private readonly paceText: HTMLSpanElement;
  private readonly stream: HTMLSpanElement;
  private readonly title: HTMLHeadingElement;
  private readonly replayBar: HTMLDivElement;
  private readonly objectives: HTMLUListElement;
  private readonly placesBox: HTMLDivElement;
  private readonly agents: AgentPanel;
  private readonly log: EventLog;

  constructor(root: HTMLElement) {
    this.status = el("span", { id: "run-status", class: "status" }, "loading");
    this.reason = el("span", { id: "run-reason", class: "muted" });
    this.clock = el("span", { id: "sim-clock" });
    this.waiting = el("span", { id: "run-waiting", class: "muted" });
    this.paceText = el("span", { id: "pace" });
    this.stream = el("span", { id: "stream-info", class: "muted" });
    this.title = el("h1", {}, "warren run");
    this.replayBar = el("div", {
      class: "replay",
      role: "toolbar",
      "aria-label": "replay controls",
      hidden: true,
    });
    this.objectives = el("ul", { id: "objectives", class: "objectives" });
    const mapsBox = el("div", { class: "maps", id: "maps" });
    this.placesBox = el("div", { id: "places" });
    const agentsBox = el("div", { id: "agents" });
    const logBox = el("div", { id: "event-log" });
    const header = el(
      "header",
      {},
      el("nav", {}, el("a", { href: "/" }, "← runs")),
      this.title,
      el(
        "p",
        { class: "run-line" },
        this.status,
        " ",
        this.reason,
        " · ",
        this.clock,
        this.waiting,
        " · ",
        this.paceText,
        " · ",
        this.stream,
      ),
      this.replayBar,
    );
    root.replaceChildren(
      header,
      el(
        "main",
        {},
        el(
          "section",
          { class: "map-column", "aria-label": "maps" },
          mapsBox,
          el("h2", {}, "Places"),
          this.placesBox,
          el(
            "p",
            { class: "muted keys" },
            "Keys: [ and ] select the previous or next agent, Esc clears it; in a replay, space plays or pauses, → steps, Home and End jump, + and − change speed.",
          ),
        ),
        el(
          "aside",
          { class: "side-column" },
          el("section", { "aria-label": "objectives" }, el("h2", {}, "Objectives"), this.objectives),
          el("section", { "aria-label": "agents" }, el("h2", {}, "Agents"), agentsBox),
        ),
      ),
      el("section", { class: "log-row", "aria-label": "event log" }, el("h2", {}, "Events"), logBox),
    );
    const select = (id: string | null) => this.select(id);
    this.map = new MapView(mapsBox, { onSelect: select });
    this.agents = new AgentPanel(agentsBox, {
      onSelect: select,
      colorOf: (agent) => this.map.colorOf(agent),
    });
    this.log = new EventLog(logBox, {
      onPick: (event) => {
        const agent = event.data.agent ?? event.data.from;
        if (agent !== undefined && this.model.agents.has(agent)) this.select(agent);
        this.map.flash(this.model.eventCell(event));
      },
    });
    document.addEventListener("keydown", (e) => this.key(e));
    // The maps fit the room left below the header: again when the window or the header changes size.
    const refit = () => this.map.refit();
    globalThis.addEventListener("resize", refit);
    if (globalThis.ResizeObserver) new ResizeObserver(refit).observe(header);
  }

  private setModel(model: RunModel): void {
    this.model = model;
    this.map.setModel(model);
    this.placesVersion = -1;
    this.log.setModel(model);
    this.redrawAll();
  }

  private redrawAll(): void {
    this.drawnVersion = -1;
    this.listedVersion = -1;
  }

  private select(agentId: string | null): void {
    this.selected = agentId === this.selected ? null : agentId;
    this.map.selected = this.selected;
    this.redrawAll();
  }

  /** Moves the selection through the agents, in the scenario's order. */
  private selectNext(step: number): void {
    const ids = [...this.model.agents.keys()];
    const at = this.selected === null ? -1 : ids.indexOf(this.selected);
    const next = ids[(at + step + ids.length + (at < 0 && step < 0 ? 1 : 0)) % ids.length];
    if (next !== undefined && next !== this.selected) this.select(next);
  }

  private key(e: KeyboardEvent): void {
    const target = e.target instanceof Element ? e.target : null;
    const typing = target?.closest("input, select, textarea");
    if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape") this.select(null);
    else if (e.key === "[" || e.key === "]") this.selectNext(e.key === "]" ? 1 : -1);
    if (!this.player) return;
    const onButton = target?.closest("button");
    if (e.key === " " && !onButton) this.player.toggle();
    else if (e.key === "ArrowRight" || e.key === ".") this.player.step();
    else if (e.key === "Home") this.player.seek(0);
    else if (e.key === "End") this.player.seek(this.player.events.length);
    else if (e.key === "+" || e.key === "=") this.player.changeSpeed(1);
    else if (e.key === "-") this.player.changeSpeed(-1);
    else return;
    e.preventDefault();
  }

  private showScene(scene: Documents.Scene): void {
    this.title.textContent = `${scene.title} — ${scene.scenario}, seed ${scene.seed}`;
    document.title = `${scene.run_id} · ${scene.scenario} · warren`;
  }

  /** Watches a run served by `warren serve`: live until it ends, then replayable. */
  async watch(runId: string): Promise<void> {
    const [scene, run] = await Promise.all([
      fetchJson<Documents.Scene>(runPath(runId, "/scene")),
      fetchJson<RunView>(`/v1${runPath(runId)}`),
    ]);
    this.runId = runId;
    this.pace = run.pace;
    // An ended run's record is asked for at once, beside its events: the page waits for neither in turn.
    if (hasEnded(run.status)) this.recordAsked = this.fetchRecord();
    this.showScene(scene);
    this.setModel(new RunModel(scene));
    this.showHolders(run);
    this.mode = "live";
    this.feed = new SpectatorFeed(runId, {
      cursor: () => this.model.cursor,
      onEvent: (event) => this.model.apply(event),
      onEnd: () => void this.replayAfterEnd(scene),
    });
    this.feed.start();
    this.loop();
    void this.pollServer();
  }

  /** Who holds each remote agent's lease: the run view has it, the event stream does not. */
  private showHolders(run: RunView): void {
    for (const view of run.agents) {
      const agent = this.model.agents.get(view.agent_id);
      if (agent && agent.controller === "remote") agent.holder = view.holder;
    }
    this.redrawAll();
  }

  /** Sets items and features to the server's truth when the page has every event the server has. */
  private async fetchWorld(): Promise<void> {
    try {
      const world = await fetchJson<Documents.WorldAnswer>(runPath(this.runId, "/world"));
      if (world.cursor === this.model.cursor) this.model.setWorld(world);
    } catch {
      // The next poll tries again; the stream says whether the run is still there.
    }
  }

  /** While live: the world every second, the lease holders every other second. */
  private async pollServer(): Promise<void> {
    for (let round = 0; this.mode === "live"; round++) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (this.mode !== "live") return;
      await this.fetchWorld();
      if (round % 2 === 1 && this.mode === "live") {
        await fetchJson<RunView>(`/v1${runPath(this.runId)}`)
          .then((run) => this.showHolders(run))
          .catch(() => {});
      }
    }
  }

  /** An ended run's record; without it the replay still plays, only texts and unlogged world changes are missing. */
  private fetchRecord(): Promise<Documents.RecordAnswer> {
    return fetchJson<Documents.RecordAnswer>(runPath(this.runId, "/record")).catch(() => ({
      texts: {},
      changes: [],
    }));
  }

  private async replayAfterEnd(scene: Documents.Scene): Promise<void> {
    const [record] = await Promise.all([this.recordAsked ?? this.fetchRecord(), this.fetchWorld()]);
    this.liveDigest = this.model.digest();
    if (this.model.firstKept > 1) {
      // The page kept only the latest events: a replay from the scene would be wrong, so none is offered.
      this.mode = "ended";
      this.texts = record.texts;
      this.replayBar.replaceChildren(
        el(
          "span",
          { class: "muted" },
          `No replay here: the page kept only the latest events of this long run (from #${this.model.firstKept}).`,
        ),
      );
      this.replayBar.hidden = false;
      return;
    }
    this.replay(scene, this.model.events, record);
  }

  /** Replays a run from its events (the run has ended). */
  replay(scene: Documents.Scene, events: RunEvent[], record: Documents.RunRecord): void {
    this.texts = record.texts;
    this.mode = "replay";
    this.showScene(scene);
    this.player = new ReplayPlayer(this.replayBar, {
      scene,
      events,
      changes: record.changes,
      onModel: (model) => this.setModel(model),
    });
    this.loop();
  }

  private loop(): void {
    if (this.looping) return;
    this.looping = true;
    let last = performance.now();
    const frame = (now: number) => {
      this.frameTimes.push(now - last);
      if (this.frameTimes.length > FRAME_SAMPLES) this.frameTimes.shift();
      last = now;
      const started = performance.now();
      this.drawFrame(now);
      // The page's own work per frame, apart from what the machine leaves it: a benchmark reads both.
      this.frameWork.push(performance.now() - started);
      if (this.frameWork.length > FRAME_SAMPLES) this.frameWork.shift();
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }

  private drawFrame(now: number): void {
    this.player?.tick(now);
    if (this.mode === "live") this.askClock(now);
    const t = this.displayTime(now);
    this.map.render(t);
    if (now - this.panelsAt >= PANEL_MS) {
      this.panelsAt = now;
      this.drawPanels(t);
    }
    if (
      this.listedVersion !== this.model.version &&
      (this.listedVersion === -1 || now - this.listedAt >= LIST_MS)
    ) {
      this.listedAt = now;
      this.listedVersion = this.model.version;
      this.agents.renderCards(this.model, this.selected);
      this.log.render();
    }
  }

  /**
   * Sim time on screen: a replay's clock, or live, the run's own. The run's clock moves on from
   * what the server last said only while the server said it moves (a paced run between events),
   * at the run's pace and never past its next event; with an event the server's clock did not
   * know of yet, or while the run waits for an agent, it stands at the latest event's time.
   */
  displayTime(now: number): number {
    if (this.player) return this.player.time;
    const model = this.model;
    const c = this.runClock;
    if (!c || c.cursor !== model.cursor || c.until_ms === null || this.pace === null) return model.simTime;
    return Math.max(model.simTime, Math.min(c.until_ms, c.sim_time_ms + (now - c.at) * this.pace));
  }

  /** Asks for the run's clock when an event came since the last answer, and every POLL_MS anyway. */
  private askClock(now: number): void {
    const c = this.runClock;
    if (this.clockAsked || now - this.clockAskedAt < CLOCK_MS) return;
    if (c && c.cursor === this.model.cursor && now - this.clockAskedAt < POLL_MS) return;
    this.clockAsked = true;
    this.clockAskedAt = now;
    fetchJson<Documents.ClockAnswer>(runPath(this.runId, "/clock"))
      .then((clock) => {
        this.runClock = { ...clock, at: performance.now() };
      })
      .catch(() => {})
      .finally(() => {
        this.clockAsked = false;
      });
  }

  private observationText(agent: ModelAgent): string {
    if (!agent.observationId) return "";
    if (this.mode !== "live") return this.texts[agent.observationId] ?? "";
    const live = this.liveText;
    const now = performance.now();
    const stale = live.agent !== agent.id || live.observationId !== agent.observationId;
    if (stale && now - live.asked > 300) {
      live.asked = now;
      const path = runPath(this.runId, `/agents/${encodeURIComponent(agent.id)}/observation`);
      fetchJson<Documents.ObservationAnswer>(path)
        .then((latest) => {
          Object.assign(live, { agent: agent.id, observationId: latest.observation_id, text: latest.text });
          this.drawnVersion = -1;
        })
        .catch(() => {});
    }
    return live.agent === agent.id ? live.text : "";
  }

  private drawPanels(t: number): void {
    const model = this.model;
    this.clock.textContent = `sim ${seconds(t)}`;
    const waitingFor = this.runClock?.cursor === model.cursor ? this.runClock.waiting_for : [];
    this.waiting.textContent =
      this.mode === "live" && waitingFor.length ? ` (waiting for ${waitingFor.join(", ")})` : "";
    const feed = this.feed;
    this.stream.textContent =
      `cursor ${model.cursor} · gaps ${model.gaps} · duplicates ${model.duplicates}` +
      (feed ? ` · lagged ${feed.lagged} · reconnects ${feed.reconnects}` : "") +
      (this.mode === "live" ? (feed?.connected ? " · live" : " · connecting") : "");
    if (this.drawnVersion === model.version) return;
    this.drawnVersion = model.version;
    this.status.textContent = model.status;
    this.status.dataset.status = model.status;
    this.reason.textContent = model.statusReason ? `(${model.statusReason})` : "";
    this.paceText.textContent =
      this.mode === "live"
        ? `pace ${this.pace === null ? "as fast as answered" : `${this.pace} sim ms per ms`}`
        : "replay";
    this.objectives.replaceChildren(
      ...[...model.objectives.values()].map((o) =>
        el(
          "li",
          { class: `objective ${o.status}`, dataset: { objective: o.id, status: o.status } },
          el("strong", {}, o.id),
          ` ${o.progress.current}/${o.progress.target} `,
          el("span", { class: "badge" }, o.status),
          o.deadline_ms === null ? "" : ` due ${seconds(o.deadline_ms)}`,
          el("progress", {
            max: o.progress.target,
            value: o.progress.current,
            "aria-label": `${o.id} progress`,
          }),
          el("div", { class: "muted" }, o.description),
        ),
      ),
    );
    if (this.placesVersion !== model.featuresVersion) {
      this.placesVersion = model.featuresVersion;
      this.placesBox.replaceChildren(placeList(model, (cell) => this.map.flash(cell)));
    }
    const selected = this.selected ? model.agents.get(this.selected) : undefined;
    this.agents.renderDetail(model, this.selected, selected ? this.observationText(selected) : "");
  }
}
