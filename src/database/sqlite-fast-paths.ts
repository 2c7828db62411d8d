import { LRUCache } from 'lru-cache';

// SQLITE_FAST_PATHS=on (the default since 2026-12-05; off is the way back): a SQLite shortcut
// that leans on how knex works inside, kept here and nowhere else so a knex upgrade breaks one
// module, and tested by the jest project `sqlite-fast-paths` and every test that starts
// `orgsec serve`. Measured in process on the bench world (100,000 alerts): 30 alerts by id
// 870-1,000 µs → 610-730 µs (statements kept prepared); served, the server's CPU per request
// (test/bench/compare-builds.mjs, 3 rounds, a quiet machine, 2026-12-05): a page built with the
// response cache off 1,860 → 1,680 µs, the GraphQL dashboard built 5,760 → 5,240 µs, distinct
// organization pages 2,693 → 2,640 µs.
// (The data-version read needs no shortcut: data-version.ts reads it on a connection of its own.)

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
