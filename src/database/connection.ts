import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { dialectOf, type Dialect } from './dialect';
import { keepPreparedStatements, type PreparingConnection } from './sqlite-fast-paths';
import { applySqlitePragmas, type PragmaConnection } from './sqlite-pragmas';

export interface DatabaseOptions {
  /** PostgreSQL schema to work in (tests give each file its own). */
  schema?: string;
  poolMax?: number;
  /** SQLite shortcuts through knex internals (SQLITE_FAST_PATHS, src/database/sqlite-fast-paths.ts). */
  sqliteFastPaths?: boolean;
}

/** Told of every statement run past knex (the SQLite data-version read), so metrics and tests count it with knex's. */
export type DirectStatementListener = (statement: { sql: string; seconds: number; outcome: 'success' | 'error' }) => void;

export interface Database {
  knex: Knex;
  dialect: Dialect;
  schema: string | undefined;
  sqliteFastPaths: boolean;
  /** The SQLite database file (undefined on PostgreSQL). */
  sqliteFile: string | undefined;
  /** The PostgreSQL URL (undefined on SQLite), for the connection the data versions are read on. */
  postgresUrl: string | undefined;
  directStatementListeners: Set<DirectStatementListener>;
  /** Registers what close() releases before the pool closes (the data-version connection). */
  onClose(release: () => void): void;
  /** Releases everything opened on this database, then closes knex's pool. */
  close(): Promise<void>;
}

type OpenedDatabase = Omit<Database, 'onClose' | 'close'>;

function closable(opened: OpenedDatabase): Database {
  const releases = new Set<() => void>();
  return {
    ...opened,
    onClose: (release) => releases.add(release),
    close: async () => {
      for (const release of releases) release();
      releases.clear();
      await opened.knex.destroy();
    },
  };
}

/**
 * While PostgreSQL is down or unreachable a request must fail within seconds (503), not wait:
 * a new connection is given this long to open (a host that drops packets never refuses), and
 * a request this long to get one from the pool (knex's default is a minute).
 */
export const PG_CONNECT_TIMEOUT_MS = 3_000;
export const PG_ACQUIRE_TIMEOUT_MS = 5_000;

/** How often PostgreSQL checks, while a query runs or waits, that this client is still there. */
export const PG_CLIENT_CHECK_INTERVAL_MS = 1000;

interface PgConnection {
  query(sql: string, callback: (error: (Error & { code?: string }) | null) => void): void;
}

/**
 * A session of an instance that died while its query waited on a lock would otherwise keep
 * every lock it holds until that wait ends. With the check, PostgreSQL ends the session,
 * rolling its transaction back, within a second. Servers before 14 lack the setting
 * (42704: unknown parameter) and keep their default.
 */
function watchForVanishedClient(conn: PgConnection, done: (error: Error | null, conn: PgConnection) => void): void {
  conn.query(`SET client_connection_check_interval = ${PG_CLIENT_CHECK_INTERVAL_MS}`, (error) => {
    done(error && error.code !== '42704' ? error : null, conn);
  });
}

interface CommittingConnection {
  inTransaction: boolean;
  prepare(sql: string): { run(...bindings: unknown[]): unknown };
  exec(sql: string): unknown;
}

/**
 * A COMMIT that fails with SQLITE_FULL or SQLITE_BUSY leaves SQLite's transaction open, and
 * knex does not roll it back: the connection would go back to the pool mid-transaction, and
 * every later write on it fail. SQLite's advice is an explicit ROLLBACK; it runs here, in the
 * same synchronous call, before any other request can use the connection.
 */
function rollBackFailedCommits(conn: CommittingConnection): void {
  const prepare = conn.prepare.bind(conn);
  conn.prepare = (sql: string) => {
    const statement = prepare(sql);
    if (!/^\s*COMMIT\b/i.test(sql)) return statement;
    const run = statement.run.bind(statement);
    statement.run = (...bindings: unknown[]) => {
      try {
        return run(...bindings);
      } catch (error) {
        if (conn.inTransaction) conn.exec('ROLLBACK');
        throw error;
      }
    };
    return statement;
  };
}

export function openDatabase(databaseUrl: string, options: DatabaseOptions = {}): Database {
  const dialect = dialectOf(databaseUrl);
  if (dialect === 'postgres') {
    const knex = knexFactory({
      client: 'pg',
      connection: { connectionString: databaseUrl, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS },
      acquireConnectionTimeout: PG_ACQUIRE_TIMEOUT_MS,
      searchPath: options.schema ? [options.schema] : undefined,
      pool: { min: 0, max: options.poolMax ?? 10, afterCreate: watchForVanishedClient },
    } as Knex.Config);
    return closable({ knex, dialect, schema: options.schema, sqliteFastPaths: false, sqliteFile: undefined, postgresUrl: databaseUrl, directStatementListeners: new Set() });
  }
  const sqliteFastPaths = options.sqliteFastPaths ?? false;
  if (databaseUrl !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(databaseUrl)), { recursive: true });
  const knex = knexFactory({
    client: 'better-sqlite3',
    connection: { filename: databaseUrl },
    useNullAsDefault: true,
    // A connection refused by applySqlitePragmas fails the query, whose caller reports it;
    // knex's own copy of that error (a stack on stdout) is noise.
    log: { warn: (message: string) => { if (!message.startsWith('Acquire connection error')) console.log(message); } },
    pool: {
      min: 1,
      max: 1,
      // A connection whose settings did not take is refused; its error fails the first query.
      afterCreate: (conn: PragmaConnection, done: (err: Error | null, conn: unknown) => void) => {
        try {
          applySqlitePragmas(conn, databaseUrl);
          rollBackFailedCommits(conn as unknown as CommittingConnection);
          if (sqliteFastPaths) keepPreparedStatements(conn as unknown as PreparingConnection);
          done(null, conn);
        } catch (error) {
          done(error as Error, conn);
        }
      },
    },
  });
  return closable({ knex, dialect, schema: undefined, sqliteFastPaths, sqliteFile: databaseUrl, postgresUrl: undefined, directStatementListeners: new Set() });
}
