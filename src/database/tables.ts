import type { Knex } from 'knex';
import { isPostgres } from './dialect';

// The database's own tables as its catalogue describes them (SQLite's pragmas, PostgreSQL's
// information_schema), for the export and its restore: every table of the migrations, each
// column's type, and the foreign keys, so that tables come parents first.

/** Bookkeeping, not data: knex's, the write counters (which only move forward, caches rely on it) and rate-limit windows. */
const NOT_EXPORTED = new Set(['knex_migrations', 'knex_migrations_lock', 'data_versions', 'rate_limit_counters']);

export interface TableColumn {
  name: string;
  /** Stored as 0/1 by SQLite, as true/false by PostgreSQL: carried as JSON booleans. */
  isBoolean: boolean;
  /** pg answers 64-bit integers as strings: carried as JSON numbers (ids and counters, well within 2^53). */
  isInteger: boolean;
  /** Filled by a sequence when not given (PostgreSQL `serial`): moved past the restored rows. */
  hasSequence: boolean;
}

export interface TableShape {
  name: string;
  columns: TableColumn[];
  /** Columns referring to the same table (a team's parent): set once the table's rows are all in. */
  selfReferences: Array<{ column: string; references: string }>;
}

interface ForeignKey { table: string; column: string; references: string; referencedColumn: string }

async function sqliteCatalogue(knex: Knex) {
  const names: string[] = (await knex.raw("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")).map((r: { name: string }) => r.name);
  const columns = new Map<string, TableColumn[]>();
  const keys: ForeignKey[] = [];
  for (const table of names) {
    const info: Array<{ name: string; type: string }> = await knex.raw(`pragma table_info(${JSON.stringify(table)})`);
    columns.set(table, info.map((c) => ({ name: c.name, isBoolean: /^bool/i.test(c.type), isInteger: /int/i.test(c.type), hasSequence: false })));
    const fks: Array<{ table: string; from: string; to: string | null }> = await knex.raw(`pragma foreign_key_list(${JSON.stringify(table)})`);
    for (const fk of fks) keys.push({ table, column: fk.from, references: fk.table, referencedColumn: fk.to ?? 'id' });
  }
  return { names, columns, keys };
}

async function postgresCatalogue(knex: Knex) {
  const tables = await knex.raw("select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name");
  const names: string[] = tables.rows.map((r: { table_name: string }) => r.table_name);
  const info = await knex.raw('select table_name, column_name, data_type, column_default from information_schema.columns where table_schema = current_schema() order by table_name, ordinal_position');
  const columns = new Map<string, TableColumn[]>();
  for (const c of info.rows as Array<{ table_name: string; column_name: string; data_type: string; column_default: string | null }>) {
    const list = columns.get(c.table_name) ?? [];
    list.push({
      name: c.column_name, isBoolean: c.data_type === 'boolean', isInteger: ['bigint', 'integer', 'smallint'].includes(c.data_type), hasSequence: /^nextval\(/.test(c.column_default ?? ''),
    });
    columns.set(c.table_name, list);
  }
  const fks = await knex.raw(`
    select kcu.table_name, kcu.column_name, ccu.table_name as references, ccu.column_name as referenced_column
    from information_schema.table_constraints tc
    join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
    join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
    where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()`);
  const keys: ForeignKey[] = fks.rows.map((r: { table_name: string; column_name: string; references: string; referenced_column: string }) => ({
    table: r.table_name, column: r.column_name, references: r.references, referencedColumn: r.referenced_column,
  }));
  return { names, columns, keys };
}

/** The exported tables, every one after the tables it refers to (ties by name, so the order is stable). */
export async function describeTables(knex: Knex): Promise<TableShape[]> {
  const { names, columns, keys } = isPostgres(knex) ? await postgresCatalogue(knex) : await sqliteCatalogue(knex);
  const exported = names.filter((n) => !NOT_EXPORTED.has(n));
  const parents = new Map(exported.map((n) => [n, new Set(keys.filter((k) => k.table === n && k.references !== n && !NOT_EXPORTED.has(k.references)).map((k) => k.references))]));
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < exported.length) {
    const next = exported.find((n) => !placed.has(n) && [...parents.get(n)!].every((p) => placed.has(p)));
    if (next === undefined) throw new Error(`the tables ${exported.filter((n) => !placed.has(n)).join(', ')} refer to each other in a cycle: they cannot be ordered`);
    ordered.push(next);
    placed.add(next);
  }
  return ordered.map((name) => ({
    name,
    columns: columns.get(name) ?? [],
    selfReferences: keys.filter((k) => k.table === name && k.references === name).map((k) => ({ column: k.column, references: k.referencedColumn })),
  }));
}
