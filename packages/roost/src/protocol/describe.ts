import { type Static, Type } from "typebox";
import type { FeedEvent } from "./feed.js";
import { Count, JobRef, Maybe } from "./fields.js";
import type { JobRow } from "./rows.js";

/** The most output lines `describe` gives. */
export const DESCRIBE_MAX_LINES = 200;

export const DescribeArgs = Type.Object({
  /** A job id or a unique name. */
  id: JobRef,
  /** How many of the last output lines (1 to 200, default 20). */
  lines: Maybe(Count(1, DESCRIBE_MAX_LINES)),
});
export type DescribeArgs = Static<typeof DescribeArgs>;

/** A job related to the one described: its parent or a child. */
export interface RelatedJob {
  id: string;
  name: string;
  lifecycle: JobRow["lifecycle"];
}

/**
 * Everything about one job, for the hub's detail view and `roost describe`: its row, how it runs,
 * its last output lines (its terminal as a person would read it), its family and its events.
 */
export interface DescribeResult {
  row: JobRow;
  /** The argv it runs. */
  command: string[];
  /** The last lines its terminal shows (with recent scrollback), blank ones at the end left out. */
  lastLines: string[];
  parent: RelatedJob | null;
  children: RelatedJob[];
  /** Other jobs with the same name (names may be shared): their ids tell them apart. */
  sameName: RelatedJob[];
  /** The feed's events about this job, oldest first (the last 50). */
  events: FeedEvent[];
}
