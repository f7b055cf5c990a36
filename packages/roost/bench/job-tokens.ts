import { readFileSync } from "node:fs";
import type { LinesClient } from "./lines-client.js";

/** A job's token as its process was given it: the store keeps only the token's hash. */
function tokenInEnvironment(pid: number): string | undefined {
  let environ: string[];
  try {
    environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
  } catch {
    return undefined;
  }
  return environ.find((v) => v.startsWith("ROOST_JOB_TOKEN="))?.slice("ROOST_JOB_TOKEN=".length);
}

/** Each listed job's id and token (or only those of `ids`), once every one of them runs. */
export async function jobTokens(
  hub: LinesClient,
  ids?: readonly string[],
): Promise<{ id: string; token: string }[]> {
  for (let tries = 0; tries < 600; tries++) {
    const rows = (await hub.request("list", {})).result.rows as { id: string; pid: number | null }[];
    const wanted = ids ? rows.filter((r) => ids.includes(r.id)) : rows;
    const found = wanted.map((r) => ({ id: r.id, token: r.pid ? tokenInEnvironment(r.pid) : undefined }));
    if (found.length > 0 && found.every((f) => f.token !== undefined)) {
      return found as { id: string; token: string }[];
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the jobs' processes never all started");
}
