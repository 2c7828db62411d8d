import type { Knex } from 'knex';

/** PostgreSQL's planner estimate of `table`'s rows in the current schema (reltuples: -1 until first vacuumed or analyzed). */
export async function plannerRows(knex: Knex, table: string): Promise<number> {
  const row = await knex('pg_class as c').join('pg_namespace as n', 'n.oid', 'c.relnamespace')
    .whereRaw('n.nspname = current_schema()').where('c.relname', table).first('c.reltuples');
  return Number(row.reltuples);
}
