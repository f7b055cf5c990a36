import assert from "node:assert/strict";
import { test } from "node:test";
import { freeName } from "../src/daemon/dispatch/free-name.js";
import type { Job } from "../src/daemon/jobs/job.js";
import { JobTable } from "../src/daemon/jobs/job-table.js";

/** What the table reads of a job: its id, name, order and role. */
function job(id: string, name: string, order: number, role: "concierge" | null = null): Job {
  return { id, name, order, role } as unknown as Job;
}

test("a free name is the base, then the lowest free -N, names compared folded", () => {
  const jobs = new JobTable();
  assert.equal(freeName(jobs, "pi"), "pi");
  jobs.set("a", job("a", "pi", 0));
  assert.equal(freeName(jobs, "pi"), "pi-2");
  jobs.set("b", job("b", "pi-2", 1));
  jobs.set("c", job("c", "PI-3", 2));
  // Folded as names are compared: "PI-3" holds "pi-3".
  assert.equal(freeName(jobs, "pi"), "pi-4");
  assert.equal(freeName(jobs, "concierge"), "concierge-2");
});

test("a name let go is given again, even below where the last search ended", () => {
  const jobs = new JobTable();
  jobs.set("a", job("a", "w", 0));
  for (let n = 2; n <= 50; n++) {
    const name = freeName(jobs, "w");
    assert.equal(name, `w-${n}`);
    jobs.set(`j${n}`, job(`j${n}`, name, n));
  }
  jobs.delete("j7");
  assert.equal(freeName(jobs, "w"), "w-7");
  jobs.set("again", job("again", "w-7", 51));
  assert.equal(freeName(jobs, "w"), "w-51");
});

test("a rename is taken in at the job's change, and so is a rename set back", () => {
  const jobs = new JobTable();
  const a = job("a", "build", 0);
  jobs.set("a", a);
  a.name = "deploy";
  jobs.noteChange(a);
  assert.equal(freeName(jobs, "build"), "build");
  assert.equal(freeName(jobs, "deploy"), "deploy-2");
  a.name = "build";
  jobs.noteChange(a);
  assert.equal(freeName(jobs, "deploy"), "deploy");
  assert.equal(freeName(jobs, "build"), "build-2");
});

test("two jobs may share a name: it is free only once both let it go", () => {
  const jobs = new JobTable();
  jobs.set("a", job("a", "x", 0));
  jobs.set("b", job("b", "x", 1));
  jobs.delete("a");
  assert.equal(freeName(jobs, "x"), "x-2");
  jobs.delete("b");
  assert.equal(freeName(jobs, "x"), "x");
});

test("the next order follows every row's, reordered ones included; the concierge is found", () => {
  const jobs = new JobTable();
  assert.equal(jobs.nextOrder(), 0);
  jobs.set("a", job("a", "a", 0));
  const b = job("b", "b", 1);
  jobs.set("b", b);
  assert.equal(jobs.nextOrder(), 2);
  b.order = 9;
  jobs.noteChange(b);
  assert.equal(jobs.nextOrder(), 10);
  assert.equal(jobs.conciergeJob(), undefined);
  const c = job("c", "concierge", 10, "concierge");
  jobs.set("c", c);
  assert.equal(jobs.conciergeJob(), c);
  jobs.delete("c");
  assert.equal(jobs.conciergeJob(), undefined);
  jobs.set("c", c);
  jobs.clear();
  assert.equal(jobs.conciergeJob(), undefined);
  assert.equal(jobs.nextOrder(), 0);
  assert.equal(freeName(jobs, "a"), "a");
});
