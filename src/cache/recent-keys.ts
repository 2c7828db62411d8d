/**
 * Keys seen lately, in two generations of at most `size` each (so at most 2 × size keys):
 * `again` says whether a key was seen before within them, and remembers it. A cache's
 * doorkeeper (as in TinyLFU): what is asked for once is not kept, what comes back is.
 */
export class RecentKeys {
  private current = new Set<string>();
  private previous = new Set<string>();

  constructor(private readonly size: number) {}

  again(key: string): boolean {
    if (this.current.has(key) || this.previous.has(key)) return true;
    if (this.current.size >= this.size) {
      this.previous = this.current;
      this.current = new Set();
    }
    this.current.add(key);
    return false;
  }

  clear(): void {
    this.current = new Set();
    this.previous = new Set();
  }
}
