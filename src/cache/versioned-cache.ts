import { approximateBytes } from './approximate-bytes';
import type { CacheBudget } from './cache-budget';
import { LRUCache } from 'lru-cache';
import { RecentKeys } from './recent-keys';

export interface VersionedCacheOptions<V extends {}> {
  /** The most the cache holds, in the units `sizeOf` measures (bytes, say). */
  maxSize: number;
  sizeOf: (value: V, key: string) => number;
  /** Called for every entry that leaves the cache: evicted, replaced, or emptied by a newer version. */
  onRemove?: (key: string) => void;
  /** Given, once, a reading of what the cache holds now in `sizeOf`'s units (cache-budget.ts). */
  report?: ((size: () => number) => void) | undefined;
  /**
   * Whether a full cache keeps a new entry only when its key comes again (default true). The
   * response cache passes false: it admits by the same rule whether full or not.
   */
  doorkeeper?: boolean;
}

/** How many keys a full cache's doorkeeper remembers, in each of its two generations. */
const DOORKEEPER_KEYS = 1024;

/**
 * An LRU cache whose entries all belong to one data version (src/database/data-version.ts).
 * A newer version empties it; a request that read an older version finds nothing and
 * stores nothing, so a value is only ever served for the version it was built under.
 *
 * Once full, a new entry is kept only if its key was refused before, lately (a doorkeeper,
 * as TinyLFU's): when the requests spread over far more than the cache holds (distinct
 * pages over a large world), keeping every miss evicts an entry for one that will not be
 * asked for again, and each evicted value, having lived long enough to reach V8's old
 * generation, waits for a full collection: its buffers (outside V8's heap) pile up to tens
 * of megabytes of RSS. Measured in test/bench/README.md ("A full cache's doorkeeper").
 */
export class VersionedCache<V extends {}> {
  private version = -1;
  private readonly entries: LRUCache<string, V>;
  private readonly sizeOf: (value: V, key: string) => number;
  private readonly maxSize: number;
  private readonly refused: RecentKeys | undefined;

  constructor(options: VersionedCacheOptions<V>) {
    const onRemove = options.onRemove;
    this.sizeOf = (value, key) => Math.max(1, options.sizeOf(value, key));
    this.maxSize = options.maxSize;
    this.entries = new LRUCache<string, V>({
      maxSize: options.maxSize, sizeCalculation: this.sizeOf,
      ...(onRemove ? { dispose: (_value: V, key: string) => onRemove(key) } : {}),
    });
    this.refused = options.doorkeeper === false ? undefined : new RecentKeys(DOORKEEPER_KEYS);
    options.report?.(() => this.entries.calculatedSize);
  }

  get(version: number, key: string): V | undefined {
    this.advanceTo(version);
    return version === this.version ? this.entries.get(key) : undefined;
  }

  /**
   * Stores the value unless its version is behind, it is larger than the whole cache, or the
   * cache is full and its key new to the doorkeeper; says whether it was stored.
   */
  set(version: number, key: string, value: V): boolean {
    this.advanceTo(version);
    if (version !== this.version) return false;
    const size = this.sizeOf(value, key);
    const full = this.entries.calculatedSize + size > this.maxSize;
    if (full && this.refused && !this.entries.has(key) && !this.refused.again(key)) return false;
    this.entries.set(key, value, { size });
    return this.entries.has(key);
  }

  private advanceTo(version: number): void {
    if (version <= this.version) return;
    this.version = version;
    this.entries.clear();
    this.refused?.clear();
  }
}

/** What holding one entry costs besides its value: the key and the LRU's own slots for it. */
export const entryBytes = (key: string) => 64 + key.length;

/** The options of a cache of plain data values counted by approximate-bytes.ts, within `budget`. */
export function budgetedOptions<V extends {}>(budget: CacheBudget): VersionedCacheOptions<V> {
  return { maxSize: budget.maxBytes, sizeOf: (value, key) => approximateBytes(value) + entryBytes(key), report: budget.report };
}
