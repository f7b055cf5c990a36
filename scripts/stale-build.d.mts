/** Throws, saying to build, if `built` is missing or older than anything under `source`. */
export function assertBuiltAfter(built: string, source: string): void;
