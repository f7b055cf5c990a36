import { LIMITS } from "./limits.js";

/** Folds a name to one line: control characters and line breaks become spaces, runs collapse. */
export function foldName(name: string, max: number = LIMITS.name): string {
  return name
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ")
    .replace(/ {2,}/g, " ")
    .trim()
    .slice(0, max);
}
