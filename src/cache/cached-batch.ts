import type { DataVersions } from '../database/data-version';
import type { Executor } from '../database/transaction';
import type { AtVersions } from './at-versions';
import { outsideTransactions } from './outside-transactions';
import { readThrough } from './read-through';
import type { CacheBudget } from './cache-budget';
import { VersionedCache, budgetedOptions } from './versioned-cache';

/** A batch look-up by id, as the stores answer it. */
export type BatchLookup<V> = (db: Executor, ids: readonly number[]) => Promise<Map<number, V>>;

/**
 * Wraps a batch look-up: results are kept for one version of the rows they come from (`reference`
 * for accounts, repositories and advisories; `data` for anything else), the request's own: a
 * page of alerts then needs no statement for what it has seen before. (Alert rows carry their
 * own versions: cached-at-row-versions.ts.) Inside a write transaction it always loads.
 */
export function cachedBatch<V extends {}>(lookup: BatchLookup<V>, options: { version: keyof DataVersions; budget: CacheBudget }): AtVersions<BatchLookup<V>> {
  const cache = new VersionedCache<V>(budgetedOptions(options.budget));
  return (versions) => {
    const version = versions?.[options.version];
    if (version === undefined) return lookup;
    return outsideTransactions(lookup, (db, ids: readonly number[]) => readThrough(cache, version, ids, String, (missing) => lookup(db, missing)));
  };
}
