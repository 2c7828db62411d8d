import { VersionedCache } from './versioned-cache';

/**
 * A batch look-up by id whose results are kept for one version of the rows they come from
 * (the reference version for accounts, repositories and advisories): a page of alerts then
 * needs no statement for the references it has seen before.
 */
export class CachedBatch<Db, V extends {}> {
  private readonly cache: VersionedCache<V>;

  constructor(private readonly load: (db: Db, ids: readonly number[]) => Promise<Map<number, V>>, maxEntries: number) {
    this.cache = new VersionedCache<V>({ maxSize: maxEntries, sizeOf: () => 1 });
  }

  /** Without a version (inside a write transaction, say) it always loads. */
  async get(db: Db, version: number | undefined, ids: readonly number[]): Promise<Map<number, V>> {
    if (version === undefined) return this.load(db, ids);
    const found = new Map<number, V>();
    const missing: number[] = [];
    for (const id of new Set(ids)) {
      const hit = this.cache.get(version, String(id));
      if (hit) found.set(id, hit);
      else missing.push(id);
    }
    if (missing.length > 0) {
      for (const [id, value] of await this.load(db, missing)) {
        this.cache.set(version, String(id), value);
        found.set(id, value);
      }
    }
    return found;
  }
}
