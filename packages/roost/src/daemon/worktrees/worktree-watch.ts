/**
 * Hears of changes in a worktree: one inotify watch per folder (a folder's watch reports its files),
 * not per file as node's recursive watch does on Linux, so fifty worktrees of a large repository
 * stay within the system's watches. Changes come together: `changed` runs `debounceMs` after the
 * first of them (a busy agent still sees its row move), with the files they touched, or null when
 * git must be asked whole (a commit, the index, a new folder). `.git` and `node_modules` are not
 * watched.
 */
import { type Dirent, type FSWatcher, readdirSync, statSync, watch } from "node:fs";
import { join, relative } from "node:path";

const SKIPPED = new Set([".git", "node_modules"]);
/** In a worktree's git folder only these tell of the agent's work (a commit writes the index). */
const GIT_FILES = new Set(["index", "HEAD"]);

export class WorktreeWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** The files changed since the last call, or null: something only git can say changed. */
  private edits: Set<string> | null = new Set();

  constructor(
    /** The worktree's folder, and the extra folders to watch flat (its git folder: commits, the index). */
    private readonly root: string,
    also: string[],
    private readonly debounceMs: number,
    private readonly changed: (edits: ReadonlySet<string> | null) => void,
  ) {
    this.watchTree(root);
    for (const folder of also) this.watchFolder(folder, false);
  }

  private watchTree(folder: string): void {
    if (!this.watchFolder(folder, true)) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries)
      if (entry.isDirectory() && !SKIPPED.has(entry.name)) this.watchTree(join(folder, entry.name));
  }

  private watchFolder(folder: string, deep: boolean): boolean {
    if (this.closed || this.watchers.has(folder)) return false;
    try {
      const watcher = watch(folder, { persistent: false }, (_event, name) => {
        if (!deep) {
          // The git folder: a commit, the index (staging) changed: git is asked again, whole.
          if (GIT_FILES.has(String(name))) this.soon(null);
          return;
        }
        if (!name) return this.soon(null);
        if (SKIPPED.has(String(name))) return;
        const path = join(folder, String(name));
        if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
          // A new folder is watched too (its files come in the events of its own watch); what it
          // held before its watch began is read whole.
          this.watchTree(path);
          this.soon(null);
        } else this.soon(relative(this.root, path));
      });
      watcher.on("error", () => {
        watcher.close();
        this.watchers.delete(folder);
        this.soon(null);
      });
      this.watchers.set(folder, watcher);
      return true;
    } catch {
      // Not a folder (a file's name came in an event), or gone already.
      return false;
    }
  }

  /** A change of the file at `path` (relative to the worktree), or of what only git can say (null). */
  private soon(path: string | null): void {
    if (this.closed) return;
    if (path === null) this.edits = null;
    else this.edits?.add(path);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const edits = this.edits;
      this.edits = new Set();
      this.changed(edits);
    }, this.debounceMs);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }
}
