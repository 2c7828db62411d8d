import { LRUCache } from 'lru-cache';
import type { Executor } from '../database/transaction';
import { approximateBytes } from './approximate-bytes';
import type { CacheBudget } from './cache-budget';
import { outsideTransactions } from './outside-transactions';

/** A row as a list names it: its id and the version the list read (dependency_alerts.version). */
export interface RowKey {
  id: number;
  version: number;
}

/**
 * A batch look-up of rows named by key. Uncached, it reads each row as it is now; each value
 * carries the version it was read at.
 */
export type RowsAt<V> = (db: Executor, keys: readonly RowKey[]) => Promise<Map<number, V>>;

/**
 * Wraps a batch look-up of rows whose version moves with every change of what the value shows
 * (see the 20261127110000 migration): an entry answers only a request for the version it was
 * read at, so a write elsewhere empties nothing, and a changed row is read again because the
 * list that named it saw its new version. A row found newer than asked for (changed between
 * the list and this look-up) is answered as found, and kept at its own version. Inside a
 * write transaction it always loads.
 */
export function cachedAtRowVersions<V extends {}>(
  lookup: RowsAt<V>,
  options: { versionOf: (value: V) => number; budget: CacheBudget },
): RowsAt<V> {
  // Keyed by number: an entry costs its value and the LRU's slots (64 bytes).
  const cache = new LRUCache<number, V>({ maxSize: options.budget.maxBytes, sizeCalculation: (value) => approximateBytes(value) + 64 });
  options.budget.report?.(() => cache.calculatedSize);
  return outsideTransactions(lookup, async (db, keys: readonly RowKey[]) => {
    const found = new Map<number, V>();
    const missing: RowKey[] = [];
    for (const key of keys) {
      const hit = cache.get(key.id);
      if (hit !== undefined && options.versionOf(hit) === key.version) found.set(key.id, hit);
      else missing.push(key);
    }
    if (missing.length > 0) {
      for (const [id, value] of await lookup(db, missing)) {
        cache.set(id, value);
        found.set(id, value);
      }
    }
    return found;
  });
}
