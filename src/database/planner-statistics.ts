import type { Knex } from 'knex';
import { isPostgres } from './dialect';

// PostgreSQL chooses its plans by the statistics ANALYZE gathers. After a bulk load they still
// describe the tables as they were (empty, often) until autovacuum comes round, up to minutes
// later, and meanwhile the alert lists are planned as scans: on the benchmark's 1,000,000-alert
// world served right after `orgsec load`, distinct organization pages answered 7 a second (p50
// 1,115 ms; 115 a second, p50 79 ms, after ANALYZE). VACUUM also marks the new rows' pages all
// visible, without which an index-only scan reads every row it scans from the table to check
// it may see it (a distinct page of that world: 1,179 table rows read, 54 ms; 0 rows, 1.7 ms
// once vacuumed). So every bulk write does both once it has committed, as PostgreSQL's
// documentation advises after a bulk load (a second for that world: VACUUM does not block reads
// or writes). SQLite: nothing. Its planner works here without statistics (no sqlite_stat1),
// and those are the plans test/integration/alert-list-plans.test.ts guards; ANALYZE would change them.

/** Vacuums and analyzes `tables` (PostgreSQL; SQLite keeps no statistics). Outside any transaction: VACUUM cannot run in one. */
export async function refreshPlannerStatistics(knex: Knex, tables: readonly string[]): Promise<void> {
  if (!isPostgres(knex) || tables.length === 0) return;
  await knex.raw(`VACUUM (ANALYZE) ${tables.map(() => '??').join(', ')}`, [...tables]);
}
