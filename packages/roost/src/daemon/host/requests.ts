/** Checks a host request's args before anything acts on them: bad input is a `bad_request`. */
import { constants } from "node:os";
import { RoostError } from "../../protocol/errors.js";
import type { HostSpawnSpec } from "./api.js";
import type { HostOpName, HostOps } from "./protocol.js";

/** The screen model's narrowest terminal. */
const MIN_COLS = 2;
export const MAX_COLS = 1000;
export const MAX_ROWS = 500;
const MAX_ID_LENGTH = 200;

type Fields = Record<string, unknown>;

function bad(message: string): never {
  throw new RoostError("bad_request", message);
}

function fields(raw: unknown): Fields {
  if (raw === undefined) return {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) bad("args must be an object");
  return raw as Fields;
}

function anyText(args: Fields, key: string): string {
  const value = args[key];
  if (typeof value !== "string") bad(`${key} must be a string`);
  return value;
}

/** A string that becomes part of a command, an environment or a path: no NUL in it. */
function text(args: Fields, key: string): string {
  const value = anyText(args, key);
  if (value.includes("\0")) bad(`${key} must not contain NUL`);
  return value;
}

function jobId(args: Fields): string {
  const id = text(args, "id");
  if (id.length === 0 || id.length > MAX_ID_LENGTH) bad(`id must be 1 to ${MAX_ID_LENGTH} characters`);
  return id;
}

function writeKey(args: Fields): string {
  const key = anyText(args, "key");
  if (key.length === 0 || key.length > MAX_ID_LENGTH) bad(`key must be 1 to ${MAX_ID_LENGTH} characters`);
  return key;
}

function integer(args: Fields, key: string, min: number, max: number): number {
  const value = args[key];
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    bad(`${key} must be an integer from ${min} to ${max}`);
  }
  return value;
}

function size(args: Fields): { cols: number; rows: number } {
  return { cols: integer(args, "cols", MIN_COLS, MAX_COLS), rows: integer(args, "rows", 1, MAX_ROWS) };
}

function spawnSpec(args: Fields): HostSpawnSpec {
  const command = args.command;
  if (!Array.isArray(command) || command.length === 0) bad("command must be a non-empty array");
  const argv = command.map((_, i) => text(command as unknown as Fields, String(i)));
  if (argv[0] === "") bad("command[0] must name a program");
  const env = args.env;
  if (typeof env !== "object" || env === null || Array.isArray(env)) bad("env must be an object");
  for (const key of Object.keys(env)) text(env as Fields, key);
  const spec: HostSpawnSpec = {
    id: jobId(args),
    command: argv,
    cwd: text(args, "cwd"),
    env: env as Record<string, string>,
    ...size(args),
    dir: text(args, "dir"),
  };
  if (spec.dir === "") bad("dir must name the job's folder");
  if (args.logMaxBytes !== undefined) spec.logMaxBytes = integer(args, "logMaxBytes", 1, 2 ** 40);
  return spec;
}

function signal(args: Fields): string {
  const name = text(args, "signal");
  if (!(name in constants.signals)) bad(`unknown signal ${name}`);
  return name;
}

const parsers: { [K in HostOpName]: (args: Fields) => HostOps[K]["args"] } = {
  hello: (args) => ({
    ...(args.screenChanges === true ? { screenChanges: true } : {}),
    ...(args.screens === false ? { screens: false } : {}),
  }),
  spawn: spawnSpec,
  write: (args) => ({
    id: jobId(args),
    data: anyText(args, "data"),
    ...(args.key !== undefined ? { key: writeKey(args) } : {}),
  }),
  resize: (args) => ({ id: jobId(args), ...size(args) }),
  kill: (args) => ({ id: jobId(args), signal: signal(args) }),
  list: () => ({}),
  screen: (args) => ({ id: jobId(args) }),
  serialize: (args) => ({ id: jobId(args) }),
  watch: (args) => ({ id: jobId(args) }),
  unwatch: (args) => ({ id: jobId(args) }),
  forget: (args) => ({ id: jobId(args) }),
  remove: (args) => ({ id: jobId(args) }),
  shutdown: () => ({}),
};

export function isHostOp(op: unknown): op is HostOpName {
  return typeof op === "string" && Object.hasOwn(parsers, op);
}

export function parseHostArgs<K extends HostOpName>(op: K, raw: unknown): HostOps[K]["args"] {
  return parsers[op](fields(raw));
}
