import type { Knex } from 'knex';
import { isPostgres } from './dialect';

// PostgreSQL chooses its plans by the statistics ANALYZE gathers. After a bulk load they still
// describe the tables as they were (empty, often) until autovacuum's analyze comes round, up to
// minutes later, and meanwhile the alert lists are planned as scans: on the benchmark's
// 1,000,000-alert world served right after `orgsec load`, distinct organization pages answered
// 8 a second (p50 949 ms). So every bulk write refreshes them once it has committed, as
// PostgreSQL's documentation advises after a bulk load.
// SQLite: nothing. Its planner works here without statistics (no sqlite_stat1), and those are
// the plans test/integration/alert-list-plans.test.ts guards; ANALYZE would change them.

/** Refreshes the planner's statistics of `tables` (PostgreSQL; SQLite keeps none). */
export async function refreshPlannerStatistics(knex: Knex, tables: readonly string[]): Promise<void> {
  if (!isPostgres(knex) || tables.length === 0) return;
  await knex.raw(`ANALYZE ${tables.map(() => '??').join(', ')}`, [...tables]);
}
