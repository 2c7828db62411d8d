import { LRUCache } from 'lru-cache';

export interface VersionedCacheOptions<V extends {}> {
  /** The most the cache holds, in the units `sizeOf` measures (bytes, say). */
  maxSize: number;
  sizeOf: (value: V, key: string) => number;
}

/**
 * An LRU cache whose entries all belong to one data version (src/database/data-version.ts).
 * A newer version empties it; a request that read an older version finds nothing and
 * stores nothing, so an answer is only ever served for the version it was built under.
 */
export class VersionedCache<V extends {}> {
  private version = -1;
  private readonly entries: LRUCache<string, V>;

  constructor(options: VersionedCacheOptions<V>) {
    this.entries = new LRUCache<string, V>({ maxSize: options.maxSize, sizeCalculation: (value, key) => Math.max(1, options.sizeOf(value, key)) });
  }

  get(version: number, key: string): V | undefined {
    this.advanceTo(version);
    return version === this.version ? this.entries.get(key) : undefined;
  }

  set(version: number, key: string, value: V): void {
    this.advanceTo(version);
    if (version === this.version) this.entries.set(key, value);
  }

  private advanceTo(version: number): void {
    if (version <= this.version) return;
    this.version = version;
    this.entries.clear();
  }
}
