/**
 * Hears of changes in a worktree: one inotify watch per folder (a folder's watch reports its files),
 * not per file as node's recursive watch does on Linux, so fifty worktrees of a large repository
 * stay within the system's watches. Changes come together: `changed` runs `debounceMs` after the
 * first of them (a busy agent still sees its row move). `.git` and `node_modules` are not watched.
 */
import { type Dirent, type FSWatcher, readdirSync, statSync, watch } from "node:fs";
import { join } from "node:path";

const SKIPPED = new Set([".git", "node_modules"]);
/** In a worktree's git folder only these tell of the agent's work (a commit writes the index). */
const GIT_FILES = new Set(["index", "HEAD"]);

export class WorktreeWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    /** The worktree's folder, and the extra folders to watch flat (its git folder: commits, the index). */
    root: string,
    also: string[],
    private readonly debounceMs: number,
    private readonly changed: () => void,
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
        // A new folder is watched too (its files come in the events of its own watch).
        if (!deep && !GIT_FILES.has(String(name))) return;
        const path = name ? join(folder, String(name)) : null;
        if (
          deep &&
          path &&
          !SKIPPED.has(String(name)) &&
          statSync(path, { throwIfNoEntry: false })?.isDirectory()
        )
          this.watchTree(path);
        this.soon();
      });
      watcher.on("error", () => {
        watcher.close();
        this.watchers.delete(folder);
        this.soon();
      });
      this.watchers.set(folder, watcher);
      return true;
    } catch {
      // Not a folder (a file's name came in an event), or gone already.
      return false;
    }
  }

  private soon(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.changed();
    }, this.debounceMs);
  }

  /** How many folders are watched (for the benchmark's figures). */
  get folders(): number {
    return this.watchers.size;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }
}
