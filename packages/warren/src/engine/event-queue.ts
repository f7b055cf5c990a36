/**
 * The simulation's agenda: a binary heap ordered by (time, phase, insertion order), so events at
 * the same millisecond come out in a fixed order. Phase lets deadline checks run after every
 * other event of their millisecond.
 */
export interface Scheduled<T> {
  time: number;
  phase: number;
  order: number;
  payload: T;
}

export class EventQueue<T> {
  private heap: Scheduled<T>[] = [];
  private counter = 0;

  get size(): number {
    return this.heap.length;
  }

  push(time: number, payload: T, phase = 0): void {
    const entry = { time, phase, order: this.counter++, payload };
    const heap = this.heap;
    // Parents move down into the hole until the entry's place is found: no swaps, no garbage.
    let i = heap.length;
    heap.push(entry);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const above = heap[parent]!;
      if (!before(entry, above)) break;
      heap[i] = above;
      i = parent;
    }
    heap[i] = entry;
  }

  peek(): Scheduled<T> | undefined {
    return this.heap[0];
  }

  pop(): Scheduled<T> | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    const n = heap.length;
    if (n > 0 && last) {
      // The last entry sinks from the root, the lesser child moving up into the hole.
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= n) break;
        const right = child + 1;
        if (right < n && before(heap[right]!, heap[child]!)) child = right;
        const below = heap[child]!;
        if (!before(below, last)) break;
        heap[i] = below;
        i = child;
      }
      heap[i] = last;
    }
    return top;
  }
}

function before<T>(a: Scheduled<T>, b: Scheduled<T>): boolean {
  if (a.time !== b.time) return a.time < b.time;
  if (a.phase !== b.phase) return a.phase < b.phase;
  return a.order < b.order;
}
