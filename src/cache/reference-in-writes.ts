import type { Executor } from '../database/transaction';
import { versionsIn } from '../database/data-version';
import { readThrough } from './read-through';
import type { CacheBudget } from './cache-budget';
import { VersionedCache, budgetedOptions } from './versioned-cache';

/** A look-up of reference data (advisories) by key, answering every key it found. */
export type KeyedLookup<K, V> = (db: Executor, keys: readonly K[]) => Promise<Map<K, V>>;

/**
 * Reference data read inside write transactions (the alert engine's advisory look-ups, which
 * every snapshot makes), kept per `reference` version. Elsewhere a transaction reads no cache,
 * since what it reads may be its own uncommitted writes; here that is told apart:
 * withTransaction takes the write lock first, so no other writer commits before this one does,
 * and the version the transaction reads is the committed one until it writes reference data
 * itself, which moves it (triggers) past every version read outside transactions. So the cache
 * answers, and keeps what the store gives, only while the transaction's version equals the
 * newest one read outside transactions (`newestCommitted`): committed data. Otherwise, and
 * outside transactions, the store answers and nothing is kept.
 */
export function referenceCachedInWrites<K, V extends {}>(
  lookup: KeyedLookup<K, V>,
  options: { keyOf: (key: K) => string; newestCommitted: () => number | undefined; budget: CacheBudget },
): KeyedLookup<K, V> {
  const cache = new VersionedCache<V>(budgetedOptions(options.budget));
  return async (db, keys) => {
    const committed = options.newestCommitted();
    if (!db.isTransaction || committed === undefined || (await versionsIn(db)).reference !== committed) return lookup(db, keys);
    return readThrough(cache, committed, keys, options.keyOf, (missing) => lookup(db, missing));
  };
}
