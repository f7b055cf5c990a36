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
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  peek(): Scheduled<T> | undefined {
    return this.heap[0];
  }

  pop(): Scheduled<T> | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    }
    return top;
  }
}

function before<T>(a: Scheduled<T>, b: Scheduled<T>): boolean {
  if (a.time !== b.time) return a.time < b.time;
  if (a.phase !== b.phase) return a.phase < b.phase;
  return a.order < b.order;
}
