import type { Knex } from 'knex';

// Statements a bulk load runs thousands of times with the same text. On SQLite the
// connection keeps them prepared (PreparedSqliteClient): preparing a 1,000-row insert takes
// longer than running it. Same text per chunk size, so each is prepared once.

type Row = Record<string, any>;

/** Runs `sql` (with `?` placeholders) in the transaction; answers the rows it returns. */
export async function runRepeated(trx: Knex.Transaction, sql: string, bindings: readonly unknown[]): Promise<Row[]> {
  const result = await trx.raw(sql, bindings as Knex.RawBinding[]);
  // PostgreSQL answers a result object; SQLite the rows of a reader, or a run summary.
  if (trx.client.config.client === 'pg') return (result as { rows: Row[] }).rows;
  return Array.isArray(result) ? (result as Row[]) : [];
}
