import type { Executor } from '../database/transaction';

/**
 * The transaction bypass every cache wrapper has: a look-up made inside a transaction reads
 * the store (a write must read what it writes, and what it reads there may yet roll back, so
 * it is neither answered from the cache nor kept); outside one, the cached look-up answers.
 */
export function outsideTransactions<A extends unknown[], R>(
  store: (db: Executor, ...args: A) => R,
  cached: (db: Executor, ...args: A) => R,
): (db: Executor, ...args: A) => R {
  return (db, ...args) => (db.isTransaction ? store(db, ...args) : cached(db, ...args));
}
