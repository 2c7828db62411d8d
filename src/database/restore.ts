import type { Knex } from 'knex';
import { migrations } from '../../db/migrations';
import type { Database } from './connection';
import { deferIndexes, deferTriggers, isPostgres } from './dialect';
import { EXPORT_FORMAT, type ExportHeader } from './export';
import { refreshPlannerStatistics } from './planner-statistics';
import { describeTables, type TableShape } from './tables';
import { withTransaction } from './transaction';

// The restore of an export (`orgsec load FILE --replace`): in one transaction, every table
// emptied, then the export's rows inserted as they stream in, a page at a time. Ids are the
// export's, so every answer names the same things. The database's triggers (write counters,
// alert versions) are off while the rows go in, and SQLite's indexes are built once a table
// is in, as for a bulk load; then what the triggers would have said is said once: the write
// counters move forward, and every alert's version moves past any version the database had
// before, since caches of running instances keep alerts per (id, version) and the restore
// reuses ids. PostgreSQL's sequences are moved past both the restored ids and the old ones.

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

  private restoreDeferred: Array<() => Promise<void>> = [];

  /** Before the first row: the table's triggers off, and on SQLite its indexes dropped (built again in finish). */
  async start(): Promise<void> {
    const table = this.shape.name;
    if (this.sqlite) {
      const indexes: Array<{ name: string }> = await this.trx('sqlite_master').where({ type: 'index', tbl_name: table }).whereNotNull('sql').select('name');
      this.restoreDeferred.push(await deferIndexes(this.trx, table, indexes.map((i) => i.name)));
      const triggers: Array<{ name: string }> = await this.trx('sqlite_master').where({ type: 'trigger', tbl_name: table }).select('name');
      this.restoreDeferred.push(await deferTriggers(this.trx, table, triggers.map((t) => t.name)));
    } else {
      await this.trx.raw('alter table ?? disable trigger user', [table]);
      this.restoreDeferred.push(async () => { await this.trx.raw('alter table ?? enable trigger user', [table]); });
    }
  }

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
    try {
      for (const restore of this.restoreDeferred.splice(0)) await restore();
    } catch (error) {
      throw new Error(`the export's table ${this.shape.name} could not be restored: ${(error as Error).message}`);
    }
    if (this.sqlite) return; // AUTOINCREMENT already counts past every id it has seen
    for (const column of this.shape.columns.filter((c) => c.hasSequence)) {
      await this.trx.raw(
        `select setval(q.s, greatest(coalesce((select max(??) from ??), 0), coalesce(pg_sequence_last_value(q.s::regclass), 0)) + 1, false)
         from (select pg_get_serial_sequence(?, ?) as s) q`,
        [column.name, this.shape.name, this.shape.name, column.name],
      );
    }
  }
}

/** The write counters forward, once; every alert's version past `versionsBefore` (the moved-by-one the triggers would add aside). */
async function sayWhatTheTriggersWould(trx: Knex.Transaction, versionsBefore: number): Promise<void> {
  await trx('data_versions').where('id', 1).update({ data: trx.raw('data + 1'), reference: trx.raw('reference + 1') });
  if (versionsBefore > 0) await trx('dependency_alerts').update({ version: trx.raw('version + ?', [versionsBefore]) });
}

/**
 * Replaces everything in the database with the export's rows; `batches` is read once per
 * attempt (a transaction retried reads the file again). Answers the rows restored per table.
 */
export async function restoreDatabase(database: Database, header: ExportHeader, batches: () => AsyncIterable<RestoreBatch>): Promise<Record<string, number>> {
  checkHeader(header);
  const sqlite = !isPostgres(database.knex);
  const counts = await withTransaction(database.knex, async (trx) => {
    // The export's order is parents first; on SQLite any order is taken (checked at commit).
    if (sqlite) await trx.raw('pragma defer_foreign_keys = on');
    const shapes = await describeTables(trx);
    const alertVersionsBefore = Number((await trx('dependency_alerts').max({ v: 'version' }).first())?.v ?? 0);
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
        await current.start();
      }
      await current.insert(batch.columns, batch.rows);
    }
    await current?.finish();
    await sayWhatTheTriggersWould(trx, alertVersionsBefore);
    return Object.fromEntries(shapes.map((s) => [s.name, writers.get(s.name)?.count ?? 0]));
  });
  // Committed: the planner learns the tables' new sizes (planner-statistics.ts).
  await refreshPlannerStatistics(database.knex, Object.keys(counts));
  return counts;
}
