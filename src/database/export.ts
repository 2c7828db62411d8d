import type { Knex } from 'knex';
import { migrations } from '../../db/migrations';
import type { Database } from './connection';
import { isPostgres } from './dialect';
import { describeTables, type TableShape } from './tables';

// `orgsec export`: every row of every table, as of one moment (one read transaction:
// PostgreSQL's repeatable read, SQLite's WAL snapshot), streamed out a page at a time so a
// million alerts never sit in memory. Values are made dialect-neutral (booleans as JSON
// booleans, PostgreSQL's 64-bit integers as numbers), so an export of SQLite restores into
// PostgreSQL and back. Tokens are rows like any other: their hashes, never their values.

export const EXPORT_FORMAT = 1;
const PAGE_ROWS = 1000;

export interface ExportHeader {
  format: number;
  /** The newest migration the database had run: a restore needs a release at the same one. */
  migration: string;
  exported_at: string;
  /** The database it came from: `sqlite` or `postgres`. */
  source: string;
}

export interface ExportSink {
  header(header: ExportHeader): Promise<void>;
  table(name: string, columns: string[]): Promise<void>;
  rows(rows: unknown[][]): Promise<void>;
  end(counts: Record<string, number>): Promise<void>;
}

function normalized(shape: TableShape, row: Record<string, unknown>): unknown[] {
  return shape.columns.map((column) => {
    const value = row[column.name];
    if (value === null || value === undefined) return null;
    if (column.isBoolean) return value === true || value === 1;
    if (column.isInteger && typeof value === 'string') return Number(value);
    return value;
  });
}

async function* postgresPages(trx: Knex.Transaction, table: string): AsyncGenerator<Record<string, unknown>[]> {
  await trx.raw('declare orgsec_export no scroll cursor for select * from ??', [table]);
  try {
    for (;;) {
      const { rows } = await trx.raw(`fetch forward ${PAGE_ROWS} from orgsec_export`);
      if (rows.length === 0) return;
      yield rows;
    }
  } finally {
    await trx.raw('close orgsec_export');
  }
}

async function* sqlitePages(trx: Knex.Transaction, table: string): AsyncGenerator<Record<string, unknown>[]> {
  for (let after = Number.MIN_SAFE_INTEGER; ;) {
    const rows: Array<Record<string, unknown> & { orgsec_rowid: number }> = await trx.raw(`select rowid as orgsec_rowid, * from ${JSON.stringify(table)} where rowid > ? order by rowid limit ${PAGE_ROWS}`, [after]);
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.orgsec_rowid;
    yield rows;
  }
}

/** Writes the whole database to `sink`, as of one moment; answers the rows written per table. */
export async function exportDatabase(database: Database, sink: ExportSink, now = new Date()): Promise<Record<string, number>> {
  const { knex } = database;
  const postgres = isPostgres(knex);
  const options: Knex.TransactionConfig = postgres ? { isolationLevel: 'repeatable read', readOnly: true } : {};
  return knex.transaction(async (trx) => {
    const ran: Array<{ name: string }> = await trx('knex_migrations').orderBy('id', 'desc').limit(1).select('name');
    const known = new Set(migrations.map(([name]) => name));
    const migration = ran[0]?.name;
    if (migration === undefined || !known.has(migration)) throw new Error('the database is not migrated by this release: run `orgsec migrate` first');
    await sink.header({ format: EXPORT_FORMAT, migration, exported_at: now.toISOString(), source: postgres ? 'postgres' : 'sqlite' });
    const counts: Record<string, number> = {};
    for (const shape of await describeTables(trx)) {
      await sink.table(shape.name, shape.columns.map((c) => c.name));
      let count = 0;
      for await (const page of postgres ? postgresPages(trx, shape.name) : sqlitePages(trx, shape.name)) {
        await sink.rows(page.map((row) => normalized(shape, row)));
        count += page.length;
      }
      counts[shape.name] = count;
    }
    await sink.end(counts);
    return counts;
  }, options);
}
