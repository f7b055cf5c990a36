import type { RunEvent } from "../../src/engine/index.js";
import type { Scene, WorldChange } from "../../src/web/viewer-documents.js";

/** The browser's run model, loaded into Node as the page loads it: a plain script, no exports. */
const modelScript = "../../src/web/assets/model.js";
await import(modelScript);

export interface ViewerAgent {
  id: string;
  cell: string;
  inventory: string[];
  lanes: Map<string, { action: string; until: number }>;
  move: unknown;
  command: { text: string; outcome: string; reason: string } | null;
  receipt: { status: string; detail: string } | null;
}

export interface ViewerModel {
  cursor: number;
  events: RunEvent[];
  firstKept: number;
  gaps: number;
  duplicates: number;
  status: string;
  simTime: number;
  agents: Map<string, ViewerAgent>;
  items: Map<string, { location: { at: string; cell?: string; agent?: string } }>;
  places: Map<string, { features: Record<string, unknown> }>;
  objectives: Map<string, { status: string; progress: { current: number; target: number } }>;
  spaces: Map<string, { width: number; blocked: Uint8Array }>;
  apply(event: RunEvent): boolean;
  position(agent: ViewerAgent, t: number): { space: string; x: number; y: number };
  eventCell(event: RunEvent): { space: string; x: number; y: number } | null;
  digest(): Record<string, unknown>;
}

export interface ViewerModelOptions {
  keepEvents?: number;
  changes?: WorldChange[];
}

export function viewerModel(scene: Scene, options: ViewerModelOptions = {}): ViewerModel {
  const viewer = (
    globalThis as unknown as {
      WarrenViewer: { RunModel: new (scene: Scene, options: ViewerModelOptions) => ViewerModel };
    }
  ).WarrenViewer;
  return new viewer.RunModel(scene, options);
}
