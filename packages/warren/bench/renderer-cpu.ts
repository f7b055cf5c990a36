import type { Browser, Page } from "playwright-core";

/** CPU milliseconds a second that a page's browser spent, by thread. */
export interface RendererCpu {
  /** The page's main thread: script, style, layout, paint, committing frames. */
  main: number;
  /** The page's compositor thread. */
  compositor: number;
  /** The browser's display compositor, which puts frames on the screen. */
  display: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

const THREADS: Record<string, keyof RendererCpu> = {
  CrRendererMain: "main",
  Compositor: "compositor",
  VizCompositorThread: "display",
};

/**
 * Traces `page` for `seconds` and sums each thread's CPU time in its tasks. CPU time, unlike wall
 * time, hardly changes with what else the machine runs: the cost of the page itself.
 */
export async function rendererCpu(browser: Browser, page: Page, seconds: number): Promise<RendererCpu> {
  await browser.startTracing(page, { categories: ["toplevel", "disabled-by-default-devtools.timeline"] });
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const { traceEvents } = JSON.parse((await browser.stopTracing()).toString()) as {
    traceEvents: TraceEvent[];
  };
  const threadOf = new Map<string, keyof RendererCpu>();
  for (const e of traceEvents) {
    const role = e.name === "thread_name" ? THREADS[e.args?.name ?? ""] : undefined;
    if (role) threadOf.set(`${e.pid}:${e.tid}`, role);
  }
  const cpu: RendererCpu = { main: 0, compositor: 0, display: 0 };
  // Tasks nest: only the outermost task on a thread is counted.
  const endOf = new Map<string, number>();
  for (const e of traceEvents
    .filter((t) => t.name === "RunTask" && t.ph === "X")
    .sort((a, b) => a.ts - b.ts)) {
    const thread = `${e.pid}:${e.tid}`;
    const role = threadOf.get(thread);
    if (!role || e.ts < (endOf.get(thread) ?? 0)) continue;
    endOf.set(thread, e.ts + (e.dur ?? 0));
    cpu[role] += (e.tdur ?? 0) / 1000 / seconds;
  }
  return cpu;
}
