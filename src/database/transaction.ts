import type { Knex } from 'knex';
import { isRetryableConflict, takeWriteLock } from './dialect';

/** Executor: the pool or an open transaction. Every store method takes one first. */
export type Executor = Knex | Knex.Transaction;

const ATTEMPTS = 5;

/**
 * Runs `work` in one write transaction, joining one that is already open instead of
 * nesting. A transaction that lost a race with another instance runs again, whole.
 */
export async function withTransaction<T>(db: Executor, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Knex.Transaction);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (trx) => {
        await takeWriteLock(trx);
        return work(trx);
      });
    } catch (error) {
      if (!isRetryableConflict(error) || attempt >= ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** attempt + Math.random() * 20));
    }
  }
}
