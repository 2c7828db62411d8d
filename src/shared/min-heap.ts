/**
 * A binary heap: `pop` takes the least item by `compare` (negative: `a` before `b`). Items
 * that compare equal come out in no promised order, so a caller that needs one gives a total order.
 */
export class MinHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly compare: (a: T, b: T) => number) {}

  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let at = items.length - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (this.compare(items[at]!, items[parent]!) >= 0) break;
      [items[at], items[parent]] = [items[parent]!, items[at]!];
      at = parent;
    }
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let least = at;
      if (left < items.length && this.compare(items[left]!, items[least]!) < 0) least = left;
      if (right < items.length && this.compare(items[right]!, items[least]!) < 0) least = right;
      if (least === at) return top;
      [items[at], items[least]] = [items[least]!, items[at]!];
      at = least;
    }
  }
}
