import type { Knex } from 'knex';
import { migrations } from '../../db/migrations';
import type { Database } from './connection';
import { isPostgres } from './dialect';
import { EXPORT_FORMAT, type ExportHeader } from './export';
import { describeTables, type TableShape } from './tables';
import { withTransaction } from './transaction';

// The restore of an export (`orgsec load FILE --replace`): in one transaction, every table
// emptied, then the export's rows inserted as they stream in, a page at a time. Ids are the
// export's, so every answer names the same things; PostgreSQL's sequences are moved past them.
// The write counters move forward as for any write, so caches of running instances never
// take the restored data for what they held.

export interface RestoreBatch {
  table: string;
  columns: string[];
  rows: unknown[][];
}

/** Statement parameters per insert: under SQLite's 32,766 and PostgreSQL's 65,535. */
const MAX_PARAMETERS = 30_000;

function checkHeader(header: ExportHeader): void {
  if (header.format !== EXPORT_FORMAT) throw new Error(`the export's format is ${String(header.format)}; this release reads format ${EXPORT_FORMAT}`);
  const names = migrations.map(([name]) => name);
  const latest = names[names.length - 1]!;
  if (header.migration === latest) return;
  if (names.includes(header.migration)) {
    throw new Error(`the export was taken at migration ${header.migration}, this release is at ${latest}: restore it with the release that exported it, then start this one (it migrates the database)`);
  }
  throw new Error(`the export was taken by a newer release (at migration ${header.migration}, which this release does not know): restore it with that release or a later one`);
}

class TableWriter {
  private readonly pendingSelfReferences: Array<{ column: string; references: string; key: Knex.Value; value: Knex.Value }> = [];
  count = 0;

  constructor(private readonly trx: Knex.Transaction, readonly shape: TableShape, private readonly sqlite: boolean) {}

  async insert(columns: string[], rows: unknown[][]): Promise<void> {
    const known = new Map(this.shape.columns.map((c) => [c.name, c]));
    for (const column of columns) if (!known.has(column)) throw new Error(`the export's table ${this.shape.name} has a column ${column} this database does not`);
    const selfReferences = this.shape.selfReferences.filter((r) => columns.includes(r.column));
    const records = rows.map((row, i) => {
      if (!Array.isArray(row) || row.length !== columns.length) throw new Error(`the export's table ${this.shape.name}, row ${this.count + i + 1}: expected ${columns.length} values`);
      const record: Record<string, unknown> = {};
      columns.forEach((name, k) => {
        const value = row[k];
        record[name] = this.sqlite && known.get(name)!.isBoolean && typeof value === 'boolean' ? Number(value) : value;
      });
      // A reference to a row of the same table may point at one not inserted yet: set afterwards.
      for (const ref of selfReferences) {
        if (record[ref.column] === null || record[ref.column] === undefined) continue;
        this.pendingSelfReferences.push({ column: ref.column, references: ref.references, key: record[ref.references] as Knex.Value, value: record[ref.column] as Knex.Value });
        record[ref.column] = null;
      }
      return record;
    });
    const perStatement = Math.max(1, Math.min(500, Math.floor(MAX_PARAMETERS / Math.max(1, columns.length))));
    for (let start = 0; start < records.length; start += perStatement) {
      try {
        await this.trx(this.shape.name).insert(records.slice(start, start + perStatement));
      } catch (error) {
        throw new Error(`the export's table ${this.shape.name} could not be restored (rows ${this.count + start + 1}–${this.count + Math.min(records.length, start + perStatement)}): ${(error as Error).message}`);
      }
    }
    this.count += rows.length;
  }

  async finish(): Promise<void> {
    for (const p of this.pendingSelfReferences) await this.trx(this.shape.name).where(p.references, p.key).update({ [p.column]: p.value });
    if (this.sqlite) return;
    for (const column of this.shape.columns.filter((c) => c.hasSequence)) {
      await this.trx.raw('select setval(pg_get_serial_sequence(?, ?), coalesce(max(??), 0) + 1, false) from ??', [this.shape.name, column.name, column.name, this.shape.name]);
    }
  }
}

/**
 * Replaces everything in the database with the export's rows; `batches` is read once per
 * attempt (a transaction retried reads the file again). Answers the rows restored per table.
 */
export async function restoreDatabase(database: Database, header: ExportHeader, batches: () => AsyncIterable<RestoreBatch>): Promise<Record<string, number>> {
  checkHeader(header);
  const sqlite = !isPostgres(database.knex);
  return withTransaction(database.knex, async (trx) => {
    // The export's order is parents first; on SQLite any order is taken (checked at commit).
    if (sqlite) await trx.raw('pragma defer_foreign_keys = on');
    const shapes = await describeTables(trx);
    for (const shape of [...shapes].reverse()) await trx(shape.name).delete();
    const byName = new Map(shapes.map((s) => [s.name, s]));
    const writers = new Map<string, TableWriter>();
    let current: TableWriter | undefined;
    for await (const batch of batches()) {
      if (current?.shape.name !== batch.table) {
        await current?.finish();
        const shape = byName.get(batch.table);
        if (shape === undefined) throw new Error(`the export has a table ${batch.table} this database does not`);
        if (writers.has(batch.table)) throw new Error(`the export has the table ${batch.table} twice`);
        current = new TableWriter(trx, shape, sqlite);
        writers.set(batch.table, current);
      }
      await current.insert(batch.columns, batch.rows);
    }
    await current?.finish();
    return Object.fromEntries(shapes.map((s) => [s.name, writers.get(s.name)?.count ?? 0]));
  });
}
