import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';

// SQLITE_FAST_PATHS=on (default off): two SQLite shortcuts that lean on how knex and its pool
// (tarn) work inside, kept here and nowhere else so a knex upgrade breaks one module, and
// tested by running the suite with the setting on. Measured in process on the bench world
// (100,000 alerts): the data-version read 135-180 µs → 18-20 µs per request; 30 alerts by id
// 870-1,000 µs → 610-730 µs (statements kept prepared).

interface Statement {
  readonly reader: boolean;
  get(...bindings: unknown[]): unknown;
}
/** The part of a better-sqlite3 connection the shortcuts use. */
export interface PreparingConnection {
  prepare(sql: string): Statement;
}

const STATEMENTS_PER_CONNECTION = 500;

/**
 * Keeps the connection's prepared statements by SQL text (knex prepares every statement
 * again on every run). Relies on knex running each statement to its end at once and never
 * changing its mode (knex only does for the safeIntegers option, which orgsec never sets).
 * SQLite re-prepares a kept statement by itself after a schema change.
 */
export function keepPreparedStatements(connection: PreparingConnection): void {
  const prepare = connection.prepare.bind(connection);
  const kept = new LRUCache<string, Statement>({ max: STATEMENTS_PER_CONNECTION });
  connection.prepare = (sql: string) => {
    let statement = kept.get(sql);
    if (!statement) kept.set(sql, (statement = prepare(sql)));
    return statement;
  };
}

/** What the fast read uses of knex's SQLite client and its pool (tarn): not knex's public API. */
interface SqliteClient {
  acquireConnection(): Promise<PreparingConnection>;
  releaseConnection(connection: PreparingConnection): Promise<void>;
  pool?: { numUsed(): number; free: Array<{ resource: PreparingConnection }> };
}

/**
 * Runs one single-row select on the pool's one connection: at once and synchronously when
 * nobody holds it (so no transaction is open on it and nobody can take it in between),
 * else after waiting for it. Skips the query builder and the pool; announces itself through
 * knex's query events, so statement counts and metrics still see it.
 */
export function fastSingleRowReader(knex: Knex, sql: string): () => Promise<unknown> {
  const client = knex.client as unknown as SqliteClient;
  const id = crypto.randomUUID();
  let reads = 0;
  const readOn = (connection: PreparingConnection): unknown => {
    const event = { __knexQueryUid: `${id}-${++reads}`, method: 'first', sql, bindings: [] };
    knex.emit('query', event);
    try {
      const row = connection.prepare(sql).get();
      knex.emit('query-response', row, event);
      return row;
    } catch (error) {
      knex.emit('query-error', error, event);
      throw error;
    }
  };
  return async () => {
    const idle = client.pool && client.pool.numUsed() === 0 ? client.pool.free[0]?.resource : undefined;
    if (idle) return readOn(idle);
    const connection = await client.acquireConnection();
    try {
      return readOn(connection);
    } finally {
      await client.releaseConnection(connection);
    }
  };
}
