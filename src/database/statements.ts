import type { Knex } from 'knex';

// Statements a bulk load runs thousands of times with the same text. On SQLite with
// SQLITE_FAST_PATHS=on the connection keeps them prepared: preparing a 1,000-row insert takes
// longer than running it. Same text per chunk size, so each is prepared once.

type Row = Record<string, any>;

/** Runs `sql` (with `?` placeholders) in the transaction; answers the rows it returns. */
export async function runRepeated(trx: Knex.Transaction, sql: string, bindings: readonly unknown[]): Promise<Row[]> {
  const answer: unknown = await trx.raw(sql, bindings as Knex.RawBinding[]);
  // Dialect difference: PostgreSQL answers a result with its rows; better-sqlite3 the rows
  // themselves, or a run summary for a statement that returns none.
  if (Array.isArray(answer)) return answer as Row[];
  return (answer as { rows?: Row[] }).rows ?? [];
}
