/**
 * An async iterable fed by pushes, holding at most `capacity` items its reader has not taken:
 * a push beyond that is refused (false), and the producer decides what a reader that fell
 * behind gets (a live subscriber's socket is closed, so none of its events is silently lost).
 * `end` finishes the iteration after what is queued; the reader's `return` (a `break`, an
 * unsubscribe) calls `onReturn` once.
 */
export class BoundedQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private ended = false;

  constructor(private readonly capacity: number, private readonly onReturn: () => void = () => undefined) {}

  push(item: T): boolean {
    if (this.ended) return true;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: item, done: false });
      return true;
    }
    if (this.items.length >= this.capacity) return false;
    this.items.push(item);
    return true;
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onReturn();
    if (this.items.length === 0) this.settleWaiting();
  }

  get pending(): number {
    return this.items.length;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.items.length > 0) return Promise.resolve({ value: this.items.shift()!, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => { this.waiting = resolve; });
      },
      return: () => {
        this.items.length = 0;
        this.end();
        this.settleWaiting();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  private settleWaiting(): void {
    const resolve = this.waiting;
    this.waiting = undefined;
    resolve?.({ value: undefined, done: true });
  }
}
