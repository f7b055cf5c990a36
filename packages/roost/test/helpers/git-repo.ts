/** Git repositories the worktree tests make, with Debian's real git. */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, LC_ALL: "C" } }).trim();
}

/** A repository on `main` with `files` committed once, and an identity of its own. */
export function makeRepository(
  files: Record<string, string> = { "shared.txt": "base\n" },
  parent?: string,
): string {
  const dir = parent
    ? join(parent, `repo-${Math.random().toString(36).slice(2, 8)}`)
    : mkdtempSync(join(tmpdir(), "roost-repo-"));
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "--quiet", "--initial-branch=main");
  git(dir, "config", "user.name", "Test Person");
  git(dir, "config", "user.email", "person@example.com");
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  if (Object.keys(files).length) {
    git(dir, "add", "--all");
    git(dir, "commit", "--quiet", "-m", "start");
  }
  return dir;
}

/** Profiles whose agents change a worktree: `committer` commits its task as shared.txt; `writer` leaves new.txt uncommitted. */
export const WORKTREE_PROFILES = {
  committer: {
    command: [
      "/bin/sh",
      "-c",
      'printf "%s\\n" "$1" > shared.txt && git add -A && git commit -qm "$1"; exec sleep 600',
      "sh",
    ],
    task: "argv",
    protocol: false,
  },
  writer: {
    command: ["/bin/sh", "-c", 'printf "%s\\n" "$1" > new.txt; exec sleep 600', "sh"],
    task: "argv",
    protocol: false,
  },
  idle: { command: ["sleep", "600"], task: "argv", protocol: false },
  /** A protocol job the test speaks for (spawns, hand-backs). */
  mute: { command: ["sleep", "600"], task: "type", protocol: true },
} as const;
