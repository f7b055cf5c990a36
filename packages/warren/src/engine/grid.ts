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

const EAST = 1;
const WEST = 2;
const SOUTH = 4;
const NORTH = 8;

/** How many distance fields a space keeps before it starts over. */
const MAX_CACHED_FIELDS = 1024;

export class Space {
  readonly blocked: Uint8Array;
  /** Steps from every cell to a destination cell, by destination; dropped when the map changes. */
  private fields = new Map<number, Int32Array>();
  /** Each cell's open neighbours (EAST | WEST | SOUTH | NORTH), made on first need; dropped when the map changes. */
  private exits: Uint8Array | undefined;
  /** The breadth-first search's queue, kept between searches rather than made for each. */
  private queue: Int32Array | undefined;

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
    this.exits = undefined;
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
    const field = new Int32Array(size).fill(-1);
    if (this.blocked[goal] === 1) return field;
    const exits = (this.exits ??= this.exitsOf());
    const queue = (this.queue ??= new Int32Array(size));
    let head = 0;
    let tail = 0;
    field[goal] = 0;
    queue[tail++] = goal;
    // Bounds and walls are in each cell's exits, so a step costs one look-up and the visited check.
    while (head < tail) {
      const at = queue[head++]!;
      const d = field[at]! + 1;
      const open = exits[at]!;
      if ((open & EAST) !== 0 && field[at + 1] === -1) {
        field[at + 1] = d;
        queue[tail++] = at + 1;
      }
      if ((open & WEST) !== 0 && field[at - 1] === -1) {
        field[at - 1] = d;
        queue[tail++] = at - 1;
      }
      if ((open & SOUTH) !== 0 && field[at + w] === -1) {
        field[at + w] = d;
        queue[tail++] = at + w;
      }
      if ((open & NORTH) !== 0 && field[at - w] === -1) {
        field[at - w] = d;
        queue[tail++] = at - w;
      }
    }
    return field;
  }

  private exitsOf(): Uint8Array {
    const w = this.width;
    const size = w * this.height;
    const blocked = this.blocked;
    const exits = new Uint8Array(size);
    for (let at = 0; at < size; at++) {
      const x = at % w;
      let open = 0;
      if (x + 1 < w && blocked[at + 1] === 0) open |= EAST;
      if (x > 0 && blocked[at - 1] === 0) open |= WEST;
      if (at + w < size && blocked[at + w] === 0) open |= SOUTH;
      if (at >= w && blocked[at - w] === 0) open |= NORTH;
      exits[at] = open;
    }
    return exits;
  }
}
