/**
 * Spaces are rectangular grids. Cells are named `<space>:<x>,<y>` with x growing east and y
 * growing south; movement is to the four neighbours, around blocked cells.
 */
export interface Cell {
  space: string;
  x: number;
  y: number;
}

export function cellName(cell: Cell): string {
  return `${cell.space}:${cell.x},${cell.y}`;
}

const CELL_PATTERN = /^([A-Za-z0-9_-]+):(\d+),(\d+)$/;

export function parseCell(name: string): Cell | undefined {
  const m = CELL_PATTERN.exec(name);
  if (!m) return undefined;
  return { space: m[1]!, x: Number(m[2]), y: Number(m[3]) };
}

export class Space {
  readonly blocked: Uint8Array;
  /** Bumped whenever a cell opens or closes, so cached distances are dropped. */
  private version = 0;
  private distanceCache = new Map<string, number>();

  constructor(
    readonly id: string,
    readonly width: number,
    readonly height: number,
  ) {
    this.blocked = new Uint8Array(width * height);
  }

  contains(x: number, y: number): boolean {
    return x >= 0 && y >= 0 && x < this.width && y < this.height;
  }

  isBlocked(x: number, y: number): boolean {
    return this.blocked[y * this.width + x] === 1;
  }

  setBlocked(x: number, y: number, blocked: boolean): void {
    this.blocked[y * this.width + x] = blocked ? 1 : 0;
    this.version++;
    this.distanceCache.clear();
  }

  /**
   * Steps on the shortest four-neighbour path from one cell to another, or undefined when no
   * path exists. Breadth-first; results are cached until the map changes.
   */
  distance(fromX: number, fromY: number, toX: number, toY: number): number | undefined {
    if (fromX === toX && fromY === toY) return 0;
    const key = `${this.version}|${fromX},${fromY}|${toX},${toY}`;
    const cached = this.distanceCache.get(key);
    if (cached !== undefined) return cached < 0 ? undefined : cached;
    const found = this.search(fromX, fromY, toX, toY);
    this.distanceCache.set(key, found ?? -1);
    return found;
  }

  private search(fromX: number, fromY: number, toX: number, toY: number): number | undefined {
    if (this.isBlocked(toX, toY)) return undefined;
    const w = this.width;
    const seen = new Int32Array(w * this.height).fill(-1);
    const queue = new Int32Array(w * this.height);
    let head = 0;
    let tail = 0;
    const start = fromY * w + fromX;
    const goal = toY * w + toX;
    seen[start] = 0;
    queue[tail++] = start;
    while (head < tail) {
      const at = queue[head++]!;
      const d = seen[at]!;
      const x = at % w;
      const y = (at - x) / w;
      const next = [
        [x + 1, y],
        [x - 1, y],
        [x, y + 1],
        [x, y - 1],
      ] as const;
      for (const [nx, ny] of next) {
        if (!this.contains(nx, ny)) continue;
        const n = ny * w + nx;
        if (seen[n] !== -1 || this.blocked[n] === 1) continue;
        if (n === goal) return d + 1;
        seen[n] = d + 1;
        queue[tail++] = n;
      }
    }
    return undefined;
  }
}
