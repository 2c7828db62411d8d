import { performance } from 'node:perf_hooks';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { PG_CONNECT_TIMEOUT_MS, type Database } from './connection';
import { isPostgres } from './dialect';
import type { Executor } from './transaction';

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

/** Reads the counters once per request: one statement, on a connection of its own. */
export class DataVersionReader {
  private readonly readRow: () => unknown;
  private newest: DataVersions | undefined;

  constructor(database: Database) {
    const { sqliteFile, postgresUrl } = database;
    this.readRow = isPostgres(database.knex) ? postgresVersionReader(postgresUrl!, database) : versionConnectionReader(sqliteFile!, database);
  }

  async read(): Promise<DataVersions> {
    const versions = toVersions(await this.readRow());
    // Reads may resolve out of order: the newest is the largest of each counter.
    this.newest = this.newest === undefined ? versions : { data: Math.max(this.newest.data, versions.data), reference: Math.max(this.newest.reference, versions.reference) };
    return versions;
  }

  /** The newest versions this reader has read: each committed (read outside any transaction); undefined before the first read. */
  newestRead(): DataVersions | undefined {
    return this.newest;
  }
}

/** The counters as a transaction sees them: its own uncommitted writes moved them. */
export async function versionsIn(trx: Executor): Promise<DataVersions> {
  return toVersions(await trx('data_versions').where('id', 1).first('data', 'reference'));
}

/** Tells the database's direct-statement listeners (metrics, tests) of one statement run past knex. */
function timed<T>(database: Pick<Database, 'directStatementListeners'>, run: () => T): T {
  const started = performance.now();
  let outcome: 'success' | 'error' = 'error';
  const report = () => {
    const seconds = (performance.now() - started) / 1000;
    for (const listener of database.directStatementListeners) listener({ sql: READ_VERSIONS, seconds, outcome });
  };
  try {
    const result = run();
    if (result instanceof Promise) {
      return result.then((value) => { outcome = 'success'; report(); return value; }, (error) => { report(); throw error; }) as T;
    }
    outcome = 'success';
    report();
    return result;
  } catch (error) {
    report();
    throw error;
  }
}

/** A PostgreSQL connection idle this long is closed (the next read opens another): it never holds a process open. */
const PG_IDLE_MS = 10_000;

/**
 * PostgreSQL: the counters are read on a connection of this reader's own, as a named
 * prepared statement: one round trip, where knex's pool and builder cost more than the
 * statement (on a cached read, most of the request). Consistent with what the request reads
 * next on knex's pool: each statement sees every transaction committed before it began, and
 * the request's reads begin after this one returned. Reads run one at a time, and every
 * request is answered by the first read sent after it arrived (`sharedReads`), so none
 * answers from before a write it should see, and concurrent requests share one round trip. A
 * connection the server ended is replaced and the read tried once more; an idle one is
 * closed; closed with the database.
 */
function postgresVersionReader(url: string, database: Pick<Database, 'directStatementListeners' | 'onClose' | 'schema'>): () => Promise<unknown> {
  let client: Promise<pg.Client> | undefined;
  let lastRead = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  let closed = false;
  const drop = () => {
    const dropped = client;
    client = undefined;
    void dropped?.then((c) => c.end(), () => undefined);
  };
  database.onClose(() => {
    closed = true;
    clearTimeout(idleTimer);
    drop();
  });
  const connect = (): Promise<pg.Client> => {
    const connection = new pg.Client({
      connectionString: url, application_name: 'orgsec data versions', connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
      ...(database.schema === undefined ? {} : { options: `-c search_path=${database.schema}` }),
    });
    const opened = connection.connect().then(() => connection);
    connection.on('error', () => { if (client === opened) client = undefined; }); // ended by the server: replaced at the next read
    return opened;
  };
  const closeWhenIdle = () => {
    idleTimer = undefined;
    if (client === undefined) return;
    const idleFor = Date.now() - lastRead;
    if (idleFor < PG_IDLE_MS) idleTimer = setTimeout(closeWhenIdle, PG_IDLE_MS - idleFor).unref();
    else void reads.idle().then(drop); // after any read in flight
  };
  const readOnce = async (): Promise<unknown> => {
    const current = (client ??= connect());
    try {
      return (await (await current).query({ name: 'orgsec_read_data_versions', text: READ_VERSIONS })).rows[0];
    } catch (error) {
      if (client === current) client = undefined;
      void current.then((c) => c.end(), () => undefined);
      throw error;
    }
  };
  // Once more on a new connection: the old one may have been ended (a restart, say) since the last read.
  const reads = sharedReads(() => timed(database, () => readOnce().catch(() => readOnce())));
  return () => {
    if (closed) return Promise.reject(new Error('the database is closed'));
    lastRead = Date.now();
    idleTimer ??= setTimeout(closeWhenIdle, PG_IDLE_MS).unref();
    return reads.join();
  };
}

/**
 * Reads sent one at a time, each shared: a caller joins the first read sent after it called
 * (the one in flight may have begun before a write the caller must see), and everyone who
 * called while one was in flight shares the next.
 */
export function sharedReads<T>(read: () => Promise<T>): { join(): Promise<T>; idle(): Promise<void> } {
  let inFlight: Promise<T> | undefined;
  let next: Promise<T> | undefined;
  const settled = (p: Promise<T> | undefined) => (p ?? Promise.resolve()).then(() => undefined, () => undefined);
  const send = (): Promise<T> => {
    const sent = read();
    inFlight = sent;
    const done = () => { if (inFlight === sent) inFlight = undefined; };
    sent.then(done, done);
    return sent;
  };
  return {
    join() {
      if (next) return next;
      if (!inFlight) return send();
      next = settled(inFlight).then(() => {
        next = undefined;
        return send();
      });
      return next;
    },
    /** Settles once no read is in flight or waiting. */
    async idle() {
      while (inFlight || next) await settled(next ?? inFlight);
    },
  };
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
  let statement: BetterSqlite3.Statement | undefined;
  let closed = false;
  // Closed with the database: the connection is this reader's own.
  database.onClose(() => {
    closed = true;
    statement?.database.close();
    statement = undefined;
  });
  return () => timed(database, () => {
    if (closed) throw new Error('the database is closed');
    statement ??= prepareOnOwnConnection(file);
    return statement.get();
  });
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
