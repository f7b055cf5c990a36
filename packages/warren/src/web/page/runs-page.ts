/** The runs page: every run the server hosts, and a form that starts a scenario run. */
import type { CreateRunRequest, RunList, RunView, ScenarioList } from "../../protocol/runs.js";
import { el } from "./dom.js";
import { fetchJson } from "./fetch-json.js";
import { seconds } from "./sim-seconds.js";

const REFRESH_MS = 1000;

function runRow(run: RunView): HTMLTableRowElement {
  const href = `/runs/${encodeURIComponent(run.run_id)}`;
  return el(
    "tr",
    { dataset: { run: run.run_id, status: run.status } },
    el("td", {}, el("a", { href }, run.run_id)),
    el("td", {}, el("span", { class: "status", dataset: { status: run.status } }, run.status)),
    el("td", {}, run.scenario),
    el("td", { class: "number" }, run.seed),
    el("td", { class: "number" }, run.agents.length),
    el("td", { class: "number" }, seconds(run.sim_time_ms)),
  );
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export async function showRunsPage(root: HTMLElement): Promise<void> {
  const scenario = el("select", { id: "scenario", name: "scenario", required: true });
  const seed = el("input", {
    id: "seed",
    name: "seed",
    type: "number",
    min: 0,
    max: 4294967295,
    value: 1,
    required: true,
  });
  const pace = el("input", {
    id: "pace",
    name: "pace",
    type: "number",
    min: 0,
    step: "any",
    value: 5,
    title: "sim ms per wall ms; empty: as fast as it goes",
  });
  const message = el("p", { id: "form-message", role: "status" });
  const form = el(
    "form",
    { class: "start-run", "aria-label": "start a run" },
    el("label", { for: "scenario" }, "scenario "),
    scenario,
    el("label", { for: "seed" }, " seed "),
    seed,
    el("label", { for: "pace" }, " pace "),
    pace,
    el("button", { type: "submit", id: "start-run" }, "Start run"),
    message,
  );
  const body = el("tbody");
  root.replaceChildren(
    el("header", {}, el("h1", {}, "warren runs")),
    el(
      "main",
      { class: "runs" },
      form,
      el(
        "table",
        { class: "runs-table" },
        el("caption", {}, "Runs on this server, newest last"),
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            ["run", "status", "scenario", "seed", "agents", "sim time"].map((h) =>
              el("th", { scope: "col" }, h),
            ),
          ),
        ),
        body,
      ),
    ),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    message.textContent = "starting…";
    try {
      const query = new URLSearchParams({ scenario: scenario.value, seed: seed.value });
      const request: CreateRunRequest = { pace: pace.value === "" ? null : Number(pace.value) };
      const run = await fetchJson<RunView>(`/v1/runs?${query}`, "POST", request);
      location.href = `/runs/${encodeURIComponent(run.run_id)}`;
    } catch (error) {
      message.textContent = messageOf(error);
    }
  });
  const refresh = async (): Promise<void> => {
    try {
      const { runs } = await fetchJson<RunList>("/v1/runs");
      body.replaceChildren(
        ...(runs.length ? runs.map(runRow) : [el("tr", {}, el("td", { colspan: 6 }, "No runs yet."))]),
      );
    } catch (error) {
      message.textContent = messageOf(error);
    }
    setTimeout(refresh, REFRESH_MS);
  };
  // The runs and the scenarios are asked for together.
  void refresh();
  try {
    const { scenarios } = await fetchJson<ScenarioList>("/v1/scenarios");
    scenario.replaceChildren(
      ...scenarios.map((s) => el("option", { value: s.name }, `${s.name} — ${s.title}`)),
    );
  } catch (error) {
    message.textContent = messageOf(error);
  }
}
