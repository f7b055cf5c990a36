/**
 * The repository's pages can be followed: every relative link in every markdown file names a file
 * that exists and, when it names a heading, a heading that page has; and no heading carries a
 * development milestone's number.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { anchors, headings, markdownFiles, relativeLinks, slug } from "./helpers/markdown-links.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const files = markdownFiles(REPO);
const pageAnchors = new Map<string, Set<string>>();
const anchorsOf = (file: string) => {
  if (!pageAnchors.has(file)) pageAnchors.set(file, anchors(readFileSync(file, "utf8")));
  return pageAnchors.get(file)!;
};

test("the pages were found", () => {
  const names = files.map((file) => relative(REPO, file));
  for (const page of [
    "README.md",
    "packages/roost/README.md",
    "packages/warren/README.md",
    "docs/benchmarks.md",
  ]) {
    assert.ok(names.includes(page), `${page} among ${names.length} pages`);
  }
});

test("every relative link and anchor resolves", () => {
  const broken: string[] = [];
  for (const file of files) {
    for (const { line, target } of relativeLinks(readFileSync(file, "utf8"))) {
      const [path = "", anchor] = target.split("#", 2);
      const linked = path === "" ? file : resolve(dirname(file), decodeURIComponent(path));
      const where = `${relative(REPO, file)}:${line} → ${target}`;
      if (!existsSync(linked)) broken.push(`${where}: no such file`);
      else if (anchor !== undefined && statSync(linked).isFile() && linked.endsWith(".md")) {
        if (!anchorsOf(linked).has(anchor.toLowerCase())) broken.push(`${where}: no such heading`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test("no heading carries a milestone number", () => {
  const numbered = files.flatMap((file) =>
    headings(readFileSync(file, "utf8"))
      .filter((heading) => /\bM\d+\b/.test(heading))
      .map((heading) => `${relative(REPO, file)}: ${heading}`),
  );
  assert.deepEqual(numbered, []);
});

test("the anchors are made as GitHub makes them", () => {
  assert.equal(slug("`roost attach ID|NAME`"), "roost-attach-idname");
  assert.equal(slug("pi's roost tools"), "pis-roost-tools");
  assert.equal(slug("Profiles (`$ROOST_HOME/roost.json`)"), "profiles-roost_homeroostjson");
  assert.equal(slug("Server: command round trip and long poll"), "server-command-round-trip-and-long-poll");
  assert.deepEqual([...anchors("# Tests\n\n## Tests\n")], ["tests", "tests-1"]);
});
