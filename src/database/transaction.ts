import type { Knex } from 'knex';

/** Executor: the pool or an open transaction. Every store method takes one first. */
export type Executor = Knex | Knex.Transaction;

/** Runs `work` in a transaction, joining one that is already open instead of nesting. */
export async function withTransaction<T>(db: Executor, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Knex.Transaction);
  return db.transaction(work);
}
