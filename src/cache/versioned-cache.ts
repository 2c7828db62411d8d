import { approximateBytes } from './approximate-bytes';
import type { CacheBudget } from './cache-budget';
import { LRUCache } from 'lru-cache';

export interface VersionedCacheOptions<V extends {}> {
  /** The most the cache holds, in the units `sizeOf` measures (bytes, say). */
  maxSize: number;
  sizeOf: (value: V, key: string) => number;
  /** Called for every entry that leaves the cache: evicted, replaced, or emptied by a newer version. */
  onRemove?: (key: string) => void;
  /** Given, once, a reading of what the cache holds now in `sizeOf`'s units (cache-budget.ts). */
  report?: ((size: () => number) => void) | undefined;
}

/**
 * An LRU cache whose entries all belong to one data version (src/database/data-version.ts).
 * A newer version empties it; a request that read an older version finds nothing and
 * stores nothing, so a value is only ever served for the version it was built under.
 */
export class VersionedCache<V extends {}> {
  private version = -1;
  private readonly entries: LRUCache<string, V>;

  constructor(options: VersionedCacheOptions<V>) {
    const onRemove = options.onRemove;
    this.entries = new LRUCache<string, V>({
      maxSize: options.maxSize, sizeCalculation: (value, key) => Math.max(1, options.sizeOf(value, key)),
      ...(onRemove ? { dispose: (_value: V, key: string) => onRemove(key) } : {}),
    });
    options.report?.(() => this.entries.calculatedSize);
  }

  get(version: number, key: string): V | undefined {
    this.advanceTo(version);
    return version === this.version ? this.entries.get(key) : undefined;
  }

  /** Stores the value unless its version is behind or it is larger than the whole cache; says whether it was stored. */
  set(version: number, key: string, value: V): boolean {
    this.advanceTo(version);
    if (version !== this.version) return false;
    this.entries.set(key, value);
    return this.entries.has(key);
  }

  private advanceTo(version: number): void {
    if (version <= this.version) return;
    this.version = version;
    this.entries.clear();
  }
}

/** What holding one entry costs besides its value: the key and the LRU's own slots for it. */
export const entryBytes = (key: string) => 64 + key.length;

/** The options of a cache of plain data values counted by approximate-bytes.ts, within `budget`. */
export function budgetedOptions<V extends {}>(budget: CacheBudget): VersionedCacheOptions<V> {
  return { maxSize: budget.maxBytes, sizeOf: (value, key) => approximateBytes(value) + entryBytes(key), report: budget.report };
}
