import { performance } from 'node:perf_hooks';
import BetterSqlite3 from 'better-sqlite3';
import type { Database } from './connection';

/**
 * The database's two write counters (see the data_versions migrations): `data` moves with
 * every committed write to a table answers are built from, `reference` with every write to the
 * tables of the records alerts refer to (accounts, repositories, advisories), which cached
 * fragments are built from. Equal counters mean equal data, in every
 * instance over the same database: that is what makes in-process caches safe.
 */
export interface DataVersions {
  data: number;
  reference: number;
}

const READ_VERSIONS = 'select data, reference from data_versions where id = 1';

/** Reads the counters once per request: one statement. */
export class DataVersionReader {
  private readonly readRow: () => unknown;

  constructor(database: Database) {
    const { knex, sqliteFile } = database;
    this.readRow = sqliteFile !== undefined
      ? versionConnectionReader(sqliteFile, database)
      : () => knex('data_versions').where('id', 1).first('data', 'reference');
  }

  async read(): Promise<DataVersions> {
    return toVersions(await this.readRow());
  }
}

/**
 * SQLite: the counters are read on a read-only connection of their own (better-sqlite3's
 * public API), with the statement prepared once: ~5 µs against 140–220 µs through knex's
 * builder and pool, which prepare every statement anew: on a cached read that was most of
 * the request. Consistent with what the request reads next on knex's connection: in WAL mode
 * each read sees every transaction committed before it began, so the versions read here are
 * never newer than what knex's connection reads afterwards (a transaction open there holds
 * that one connection, so the request's reads wait for its commit). Opened at the first read,
 * after the migrations; closed with the database. Metrics count the statement with knex's
 * (directStatementListeners).
 */
function versionConnectionReader(file: string, database: Pick<Database, 'directStatementListeners' | 'onClose'>): () => unknown {
  const listeners = database.directStatementListeners;
  let statement: BetterSqlite3.Statement | undefined;
  let closed = false;
  // Closed with the database: the connection is this reader's own.
  database.onClose(() => {
    closed = true;
    statement?.database.close();
    statement = undefined;
  });
  return () => {
    if (closed) throw new Error('the database is closed');
    const started = performance.now();
    let outcome: 'success' | 'error' = 'error';
    try {
      statement ??= prepareOnOwnConnection(file);
      const row = statement.get();
      outcome = 'success';
      return row;
    } finally {
      const seconds = (performance.now() - started) / 1000;
      for (const listener of listeners) listener({ sql: READ_VERSIONS, seconds, outcome });
    }
  };
}

function prepareOnOwnConnection(file: string): BetterSqlite3.Statement {
  const connection = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    return connection.prepare(READ_VERSIONS);
  } catch (error) {
    connection.close(); // not migrated yet, say: the next read tries again
    throw error;
  }
}

function toVersions(row: unknown): DataVersions {
  const r = row as { data: number | string; reference: number | string } | undefined;
  if (!r) throw new Error('data_versions has no row: run the migrations');
  return { data: Number(r.data), reference: Number(r.reference) };
}
