import type { OpArgs } from "../../protocol/ops.js";
import { button, el } from "./dom.js";
import type { Live } from "./live.js";
import type { Say } from "./say.js";

/**
 * `New…`: a job dispatched from one of the daemon's profiles, with its task, and a name, a folder
 * and a worktree of its own when given. Each press makes one request id: sent again after a break, it still starts one job.
 */
export class DispatchForm {
  readonly opener = button("New…", () => this.toggle(), "new");
  readonly element: HTMLFormElement;
  private readonly profile = el("select", { class: "dispatch-profile" });
  private readonly task = el("textarea", { class: "dispatch-task" });
  private readonly name = el("input", { class: "dispatch-name" });
  private readonly folder = el("input", { class: "dispatch-folder" });
  /** Checked: a git worktree of its own, as `--worktree`; unchecked: as the profile says. */
  private readonly worktree = el("input", { class: "dispatch-worktree" });
  private readonly state = el("p", { class: "dispatch-state" });
  private readonly submit = el("button", { class: "dispatch-send" }, "Dispatch");

  constructor(
    private readonly live: Live,
    private readonly say: Say,
  ) {
    this.opener.setAttribute("aria-expanded", "false");
    this.profile.setAttribute("aria-label", "profile");
    this.task.rows = 3;
    this.task.placeholder = "Task…";
    this.task.setAttribute("aria-label", "task");
    this.name.placeholder = "Name (optional)";
    this.name.setAttribute("aria-label", "name");
    this.folder.placeholder = "Folder (optional)";
    this.folder.title = "Left empty: the profile's folder, else the daemon's home";
    this.folder.setAttribute("aria-label", "folder");
    this.worktree.type = "checkbox";
    this.submit.type = "submit";
    this.element = el(
      "form",
      {
        class: "dispatch",
        on: {
          submit: (event) => {
            event.preventDefault();
            void this.send();
          },
        },
      },
      el("label", { class: "dispatch-field" }, "Profile ", this.profile),
      this.task,
      el("div", { class: "dispatch-more" }, this.name, this.folder),
      el("label", { class: "dispatch-field" }, this.worktree, "In a git worktree of its own"),
      this.state,
      el(
        "div",
        { class: "dispatch-buttons" },
        this.submit,
        button("Cancel", () => this.close(), "cancel"),
      ),
    );
    this.element.hidden = true;
    // As the reply box: Enter sends, Shift-Enter makes a new line.
    this.task.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey) {
        event.preventDefault();
        void this.send();
      }
    });
  }

  private toggle(): void {
    if (this.element.hidden) this.open();
    else this.close();
  }

  /** Shows the form and asks the daemon for its profiles now (roost.json may have changed). */
  private open(): void {
    this.element.hidden = false;
    this.opener.setAttribute("aria-expanded", "true");
    this.task.focus();
    void this.loadProfiles();
  }

  private close(): void {
    this.element.hidden = true;
    this.opener.setAttribute("aria-expanded", "false");
  }

  private async loadProfiles(): Promise<void> {
    this.tell("Asking the daemon for its profiles…");
    const answer = await this.live.call("profiles", {});
    if (!answer.ok) {
      this.tell(`The profiles cannot be read: ${answer.code}: ${answer.error}`, true);
      return;
    }
    const chosen = this.profile.value;
    const names = answer.result.profiles;
    this.profile.replaceChildren(...names.map((name) => el("option", {}, name)));
    if (names.includes(chosen)) this.profile.value = chosen;
    this.tell(names.length === 0 ? "No profiles in roost.json (agentProfiles)." : "");
  }

  private tell(text: string, refused = false): void {
    this.state.textContent = text;
    this.state.classList.toggle("error", refused);
  }

  private async send(): Promise<void> {
    const profile = this.profile.value;
    if (profile === "" || this.submit.disabled) return;
    const args: OpArgs<"dispatch"> = { profile, requestId: `web-${crypto.randomUUID()}` };
    const task = this.task.value;
    const name = this.name.value.trim();
    const cwd = this.folder.value.trim();
    if (task.trim() !== "") args.task = task;
    if (name !== "") args.name = name;
    if (cwd !== "") args.cwd = cwd;
    if (this.worktree.checked) args.worktree = true;
    this.submit.disabled = true;
    this.submit.textContent = "Dispatching…";
    this.say(`Dispatching ${profile}…`);
    const answer = await this.live.call("dispatch", args, true);
    this.submit.disabled = false;
    this.submit.textContent = "Dispatch";
    if (!answer.ok) {
      const refused = `Dispatch ${profile} refused: ${answer.code}: ${answer.error}`;
      this.tell(refused, true);
      this.say(refused, "error");
      return;
    }
    this.tell("");
    this.task.value = "";
    this.name.value = "";
    this.close();
    this.say(`Started ${answer.result.name} (${answer.result.id}) from ${profile}.`);
  }
}
