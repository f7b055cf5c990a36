import { boardTask, countTasks } from "../../hub/optional-ops.js";
import type { BoardTask } from "../../protocol/board.js";
import { el } from "./dom.js";
import type { Live } from "./live.js";
import type { Say } from "./say.js";

/**
 * The task board: each task with its number, its state (`blocked` for an open one waiting on
 * another, as the hub has it), its title and who holds it, what it says and what came of it; and a
 * line to add one, as the hub's `T`. The sessions claim them; the page only adds.
 */
export class BoardView {
  readonly element = el("section", { class: "board-view" });
  private readonly summary = el("p", { class: "board-summary" });
  private readonly list = el("ol", { class: "tasks" });
  private readonly title = el("input", { class: "task-title" });

  constructor(
    private readonly live: Live,
    private readonly say: Say,
  ) {
    this.title.placeholder = "A new task for the board…";
    this.title.setAttribute("aria-label", "new task");
    const add = el("button", { class: "task-add-button" }, "Add task");
    add.type = "submit";
    const form = el(
      "form",
      {
        class: "task-add",
        on: {
          submit: (event) => {
            event.preventDefault();
            void this.add();
          },
        },
      },
      this.title,
      add,
    );
    this.element.append(el("h2", {}, "Board"), this.summary, form, this.list);
  }

  /** The whole board, oldest first; null: the daemon has none. */
  update(tasks: BoardTask[] | null): void {
    if (tasks === null) {
      this.summary.textContent = "This daemon keeps no task board.";
      this.list.replaceChildren();
      return;
    }
    const items = tasks.map((task) => ({ task, look: boardTask(task as never) }));
    const counts = countTasks(items.map((item) => item.look));
    this.summary.textContent =
      tasks.length === 0
        ? "The board is empty: add a task here (or roost tasks add TITLE); sessions claim them."
        : `${counts.open} open · ${counts.claimed} claimed${counts.blocked > 0 ? ` · ${counts.blocked} blocked` : ""} · ${counts.done} done`;
    this.list.replaceChildren(
      ...items.map(({ task, look }) =>
        el(
          "li",
          { class: `task task-${look.state}`, data: { id: String(task.id) } },
          el(
            "div",
            { class: "task-line" },
            el("span", { class: "task-id" }, `#${task.id}`),
            el("span", { class: "task-state" }, look.state),
            el("span", { class: "task-name" }, task.title),
            look.owner && el("span", { class: "task-owner" }, `· ${look.owner}`),
            !task.owner && task.assigned && el("span", { class: "task-owner" }, `· to ${task.assigned.name}`),
          ),
          task.detail && el("p", { class: "task-detail" }, task.detail),
          task.result && el("p", { class: "task-result" }, `→ ${task.result}`),
        ),
      ),
    );
  }

  private async add(): Promise<void> {
    const title = this.title.value.trim();
    if (title === "") return;
    const answer = await this.live.call("task", { action: "add", title });
    if (!answer.ok) return this.say(`Add task refused: ${answer.code}: ${answer.error}`, "error");
    this.title.value = "";
    this.say(`Added task #${answer.result.task?.id ?? "?"} to the board.`);
  }
}
