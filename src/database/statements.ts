import crypto from 'node:crypto';
import type { Knex } from 'knex';

// Statements a bulk load runs thousands of times with the same text. On SQLite with
// SQLITE_FAST_PATHS=on the connection keeps them prepared: preparing a 1,000-row insert takes
// longer than running it. Same text per chunk size, so each is prepared once.

type Row = Record<string, any>;

interface QueryObject {
  sql: string;
  bindings: readonly unknown[];
  method: 'raw';
  options: object;
  __knexQueryUid: string;
  response?: unknown;
}
/** What this module uses of a transaction's client: its connection and the client's own query step. */
interface TransactionClient {
  acquireConnection(): Promise<unknown>;
  query(connection: unknown, query: QueryObject): Promise<QueryObject>;
  emit(event: 'query-response', response: unknown, query: QueryObject): void;
  emit(event: 'query-error', error: unknown, query: QueryObject): void;
}

/** Runs `sql` (with `?` placeholders) in the transaction; answers the rows it returns. */
export async function runRepeated(trx: Knex.Transaction, sql: string, bindings: readonly unknown[]): Promise<Row[]> {
  if (trx.client.config.client === 'pg') return ((await trx.raw(sql, bindings as Knex.RawBinding[])) as { rows: Row[] }).rows;
  // SQLite: straight to the client's query step, which announces the query, keeps it
  // prepared and runs it. knex.raw would first walk the SQL text and every binding of a
  // 23,000-binding insert, only to give back the same text and bindings.
  const client = trx.client as unknown as TransactionClient;
  const query: QueryObject = { sql, bindings, method: 'raw', options: {}, __knexQueryUid: crypto.randomUUID() };
  try {
    const answered = await client.query(await client.acquireConnection(), query);
    client.emit('query-response', answered.response, query);
    return Array.isArray(answered.response) ? (answered.response as Row[]) : [];
  } catch (error) {
    client.emit('query-error', error, query);
    throw error;
  }
}
