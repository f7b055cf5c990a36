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

/** How many distance fields a space keeps before it starts over. */
const MAX_CACHED_FIELDS = 1024;

export class Space {
  readonly blocked: Uint8Array;
  /** Steps from every cell to a destination cell, by destination; dropped when the map changes. */
  private fields = new Map<number, Int32Array>();

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
    this.fields.clear();
  }

  /**
   * Steps on the shortest four-neighbour path from one cell to another, or undefined when no
   * path exists. One breadth-first search from the destination serves every start cell.
   */
  distance(fromX: number, fromY: number, toX: number, toY: number): number | undefined {
    if (fromX === toX && fromY === toY) return 0;
    const goal = toY * this.width + toX;
    let field = this.fields.get(goal);
    if (!field) {
      if (this.fields.size >= MAX_CACHED_FIELDS) this.fields.clear();
      field = this.fieldTo(goal);
      this.fields.set(goal, field);
    }
    const d = field[fromY * this.width + fromX]!;
    return d < 0 ? undefined : d;
  }

  private fieldTo(goal: number): Int32Array {
    const w = this.width;
    const size = w * this.height;
    const blocked = this.blocked;
    const field = new Int32Array(size).fill(-1);
    if (blocked[goal] === 1) return field;
    const queue = new Int32Array(size);
    let head = 0;
    let tail = 0;
    field[goal] = 0;
    queue[tail++] = goal;
    // The four neighbours inline: a field is made once per destination, before the loop is hot.
    while (head < tail) {
      const at = queue[head++]!;
      const d = field[at]! + 1;
      const x = at % w;
      let next = at + 1;
      if (x + 1 < w && field[next] === -1 && blocked[next] === 0) {
        field[next] = d;
        queue[tail++] = next;
      }
      next = at - 1;
      if (x > 0 && field[next] === -1 && blocked[next] === 0) {
        field[next] = d;
        queue[tail++] = next;
      }
      next = at + w;
      if (next < size && field[next] === -1 && blocked[next] === 0) {
        field[next] = d;
        queue[tail++] = next;
      }
      next = at - w;
      if (next >= 0 && field[next] === -1 && blocked[next] === 0) {
        field[next] = d;
        queue[tail++] = next;
      }
    }
    return field;
  }
}
