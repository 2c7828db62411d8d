import type { Database } from './connection';
import { fastSingleRowReader } from './sqlite-fast-paths';

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

/** Reads the counters once per request: one statement, seen by knex's query events like any other. */
export class DataVersionReader {
  private readonly readRow: () => Promise<unknown>;

  constructor({ knex, dialect, sqliteFastPaths }: Database) {
    this.readRow = dialect === 'sqlite' && sqliteFastPaths
      ? fastSingleRowReader(knex, 'select data, reference from data_versions where id = 1')
      : () => knex('data_versions').where('id', 1).first('data', 'reference');
  }

  async read(): Promise<DataVersions> {
    return toVersions(await this.readRow());
  }
}

function toVersions(row: unknown): DataVersions {
  const r = row as { data: number | string; reference: number | string } | undefined;
  if (!r) throw new Error('data_versions has no row: run the migrations');
  return { data: Number(r.data), reference: Number(r.reference) };
}
