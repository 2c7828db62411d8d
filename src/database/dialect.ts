// Every difference between SQLite and PostgreSQL that the code relies on is named here.
import type { Knex } from 'knex';
import { types as pgTypes } from 'pg';

export type Dialect = 'sqlite' | 'postgres';

export function dialectOf(databaseUrl: string): Dialect {
  return /^postgres(ql)?:\/\//.test(databaseUrl) ? 'postgres' : 'sqlite';
}

/** Anything that runs SQL: a knex instance, a transaction or a query builder. */
interface OverConnection { client: { config: { client?: unknown } } }

/** Whether `db` runs on PostgreSQL: the one question every dialect branch asks (connection.ts opens it with the pg client). */
export function isPostgres(db: OverConnection): boolean {
  return db.client.config.client === 'pg';
}

// PostgreSQL returns int8 (COUNT(*), bigint sums) as strings; our counts fit in a double.
pgTypes.setTypeParser(20, (value) => Number.parseInt(value, 10));

/** SQLite stores booleans as 0/1; PostgreSQL returns real booleans. */
export function toBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/**
 * Inserts rows given as one JSON parameter (each an array of its column values in `columns`
 * order), in that order, in one statement of constant text: the database prepares one short
 * statement, where a multi-row VALUES insert is a new statement of thousands of parameters per
 * batch. SQLite reads the parameter with json_each, PostgreSQL with jsonb_array_elements (its
 * text cast to the `integer` columns).
 */
export async function insertJsonRows(db: Knex | Knex.Transaction, table: string, columns: ReadonlyArray<readonly [name: string, type: 'text' | 'integer']>, rows: ReadonlyArray<readonly unknown[]>): Promise<void> {
  if (rows.length === 0) return;
  const names = columns.map(() => '??').join(', ');
  const bindings = [table, ...columns.map(([name]) => name), JSON.stringify(rows)];
  if (isPostgres(db)) {
    const values = columns.map(([, type], i) => (type === 'integer' ? `(e ->> ${i})::integer` : `e ->> ${i}`)).join(', ');
    await db.raw(`insert into ?? (${names}) select ${values} from jsonb_array_elements(?::jsonb) with ordinality as t(e, n) order by n`, bindings);
  } else {
    const values = columns.map((_, i) => `j.value ->> ${i}`).join(', ');
    await db.raw(`insert into ?? (${names}) select ${values} from json_each(?) as j order by j.key`, bindings);
  }
}

/**
 * Locks the selected rows until the transaction ends. PostgreSQL needs FOR UPDATE for a
 * read-then-write; SQLite has one writer at a time, so the write transaction itself locks.
 */
export function lockForUpdate<Q extends OverConnection & { forUpdate(): Q }>(query: Q): Q {
  return isPostgres(query) ? query.forUpdate() : query;
}

/**
 * A transaction that lost a race with another process and can simply run again:
 * SQLite busy or locked (several processes over one file), PostgreSQL serialization
 * failure or deadlock (several instances over one database).
 */
export function isRetryableConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT' || code === 'SQLITE_LOCKED' || code === '40001' || code === '40P01';
}

/**
 * SQLite: the first write statement of a transaction takes the write lock, so issuing one
 * that touches nothing makes it BEGIN IMMEDIATE (knex only says BEGIN). A read-then-write
 * transaction then waits for the lock up front (busy timeout) instead of failing half-way.
 * PostgreSQL: every write bumps the one data_versions row (its triggers), which would lock
 * it at a transaction's first write, after row locks taken by FOR UPDATE reads: two writers
 * could then wait on each other. Locking that row first orders every writer the same way.
 */
export async function takeWriteLock(trx: OverConnection & { raw(sql: string): Promise<unknown> }): Promise<void> {
  if (isPostgres(trx)) await trx.raw('SELECT id FROM data_versions WHERE id = 1 FOR UPDATE');
  else await trx.raw('DELETE FROM accounts WHERE 0');
}

/**
 * Another process created the same table a moment ago (instances migrating at once).
 * PostgreSQL says so by code; SQLite only has SQLITE_ERROR for it, so its message is read.
 */
export function isConcurrentCreate(error: unknown): boolean {
  const { code, message, constraint } = (error ?? {}) as { code?: unknown; message?: unknown; constraint?: unknown };
  if (code === '42P07' || (code === '23505' && (constraint === 'pg_type_typname_nsp_index' || constraint === 'pg_class_relname_nsp_index'))) return true;
  return code === 'SQLITE_ERROR' && typeof message === 'string' && /already exists/.test(message);
}

/**
 * SQLite: drops the given indexes of a table for a bulk insert and answers how to create
 * them again, in the same transaction (a rollback restores them). Building an index over a
 * million rows at once costs a fraction of updating it row by row. PostgreSQL keeps them:
 * dropping an index there locks the table against every reader until the load commits.
 */
export function deferIndexes(trx: Knex.Transaction, table: string, names: readonly string[]): Promise<() => Promise<void>> {
  return deferSqliteObjects(trx, 'index', table, names);
}

/**
 * Turns the given triggers of a table off while rows they need not see are inserted, and
 * answers how to turn them on again, in the same transaction (a rollback restores them); the
 * caller says why they need not fire. SQLite drops and recreates them. PostgreSQL disables
 * them (ALTER TABLE, transactional): that locks the table against other writers, never
 * readers, until the commit, and the loads that call this hold the write lock anyway.
 * (Measured on a 1,000,000-alert load: a statement trigger moving the versions of 300 new
 * alerts cost 25 ms a batch, more than inserting their 1,000 rows.)
 */
export async function deferTriggers(trx: Knex.Transaction, table: string, names: readonly string[]): Promise<() => Promise<void>> {
  if (!isPostgres(trx)) return deferSqliteObjects(trx, 'trigger', table, names);
  for (const name of names) await trx.raw('alter table ?? disable trigger ??', [table, name]);
  return async () => {
    for (const name of names) await trx.raw('alter table ?? enable trigger ??', [table, name]);
  };
}

async function deferSqliteObjects(trx: Knex.Transaction, type: 'index' | 'trigger', table: string, names: readonly string[]): Promise<() => Promise<void>> {
  if (isPostgres(trx) || names.length === 0) return async () => undefined;
  const objects: Array<{ name: string; sql: string }> = await trx('sqlite_master')
    .where({ type, tbl_name: table }).whereIn('name', [...names]).select('name', 'sql');
  for (const { name } of objects) await trx.raw(`drop ${type} ??`, [name]);
  return async () => {
    for (const { sql } of objects) await trx.raw(sql);
  };
}

const BULK_CACHE_KIB = -64 * 1024;

/**
 * SQLite: a bulk load's pages do not fit the default 2 MB page cache, and every insert would
 * read index pages back from the WAL; 64 MB while `work` runs, then the connection's own
 * setting again, whatever happens. PostgreSQL's buffers are the server's.
 */
export async function withBulkCache<T>(trx: Knex.Transaction, work: () => Promise<T>): Promise<T> {
  if (isPostgres(trx)) return work();
  const [{ cache_size: cacheSize }] = await trx.raw('pragma cache_size');
  await trx.raw(`pragma cache_size = ${BULK_CACHE_KIB}`);
  try {
    return await work();
  } finally {
    await trx.raw(`pragma cache_size = ${Number(cacheSize)}`);
  }
}
