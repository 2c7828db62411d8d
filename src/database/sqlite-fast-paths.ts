import { LRUCache } from 'lru-cache';

// SQLITE_FAST_PATHS=on (default off): a SQLite shortcut that leans on how knex works inside,
// kept here and nowhere else so a knex upgrade breaks one module, and tested by running the
// suite with the setting on. Measured in process on the bench world (100,000 alerts): 30
// alerts by id 870-1,000 µs → 610-730 µs (statements kept prepared). (The data-version read
// needs no shortcut: data-version.ts reads it on a connection of its own.)

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
