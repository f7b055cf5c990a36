/**
 * An entry made from what a record says: its text cut to the limit, the names beside it cut to
 * theirs, so one entry is always far below what an answer may carry, whatever the record holds.
 */
import { LIMITS, type TranscriptEntry, type TranscriptKind } from "../../protocol/index.js";
import { isObject } from "../conversations/session-record.js";

/** A call's id as a record writes it: longer is cut. */
const CALL_ID_CHARS = 200;
/** An ISO time is about 30 characters: anything much longer is not one. */
const TIME_CHARS = 40;

/** The start of `text`, at most `max` code units, never half of a surrogate pair. */
function head(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** A string field of a record, cut to `max`; undefined when it is not a string or is empty. */
export function field(value: unknown, max: number): string | undefined {
  return typeof value === "string" && value !== "" ? head(value, max) : undefined;
}

/** A record's time as it wrote it (an ISO string, or milliseconds since the epoch), or null. */
export function timeOf(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date.toISOString();
  }
  if (typeof value !== "string" || value.length > TIME_CHARS || Number.isNaN(Date.parse(value))) return null;
  return value;
}

/** A message's content as text: a string, or its text parts joined (an image shows as `[image]`). */
export function contentText(content: unknown, textTypes: readonly string[] = ["text"]): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const part of content) {
    if (!isObject(part)) continue;
    if (textTypes.includes(String(part.type)) && typeof part.text === "string") parts.push(part.text);
    else if (part.type === "image" || part.type === "input_image") parts.push("[image]");
  }
  return parts.join("\n");
}

/** A tool's input as the transcript shows it: a string as it is, anything else as JSON. */
export function inputText(input: unknown): string {
  if (typeof input === "string") return input;
  return JSON.stringify(input ?? null) ?? "null";
}

export interface EntryFields {
  tool?: unknown;
  callId?: unknown;
  error?: boolean;
  from?: unknown;
  relation?: unknown;
  delivery?: TranscriptEntry["delivery"];
}

export function transcriptEntry(
  kind: TranscriptKind,
  text: string,
  at: string | null,
  fields: EntryFields = {},
): TranscriptEntry {
  const entry: TranscriptEntry = { kind, at, text: head(text, LIMITS.transcriptText) };
  if (entry.text.length < text.length) entry.cut = text.length;
  const tool = field(fields.tool, LIMITS.tool);
  if (tool !== undefined) entry.tool = tool;
  const callId = field(fields.callId, CALL_ID_CHARS);
  if (callId !== undefined) entry.callId = callId;
  if (fields.error) entry.error = true;
  const from = field(fields.from, LIMITS.name);
  if (from !== undefined) entry.from = from;
  const relation = field(fields.relation, LIMITS.name);
  if (relation !== undefined) entry.relation = relation;
  if (fields.delivery !== undefined) entry.delivery = fields.delivery;
  return entry;
}
