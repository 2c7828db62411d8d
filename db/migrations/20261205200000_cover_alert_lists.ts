import type { Knex } from 'knex';

// A page of an alert list is read from its list index: each alert's id, version and sort value,
// the list's filters tested on the way. The organization lists' indexes carried the filters but
// not the version, the repository lists' neither. PostgreSQL then fetched every alert it scanned
// from the table, to read the version and test the filters there (an Index Scan filters table
// rows, not index entries): a distinct page of the 1,000,000-alert bench world read 931 table
// rows for its 31 (53 ms); from an index that carries both it is an Index Only Scan, and once
// the table is vacuumed (planner-statistics.ts, after bulk loads) 0 table rows (1.7 ms). SQLite
// tests the filters on the index entries, but read every scanned repository alert from the table.
// Same names as before (the bulk loader rebuilds them by name: alerts.world-store.ts).
//
// PostgreSQL, alerts in the table: each new index is built CONCURRENTLY beside the old one,
// then the old is dropped and the new renamed, so instances of the previous release go on
// reading and writing meanwhile (README, Upgrades). That cannot run in a transaction (the
// migration lock is a session's: migrate.ts); a migration stopped half way runs again from the
// start (a half-built index is dropped first). An empty table (a new database) is indexed at
// once, in a transaction: a concurrent build would wait for every older transaction of the database.
export const config = { transaction: false };

const SORTS = [['created', 'created_at'], ['updated', 'updated_at'], ['epss', 'epss_sort']] as const;
// What the filters and the visibility checks of src/modules/dependency-alerts/alerts.store.ts read, and the version a page names.
const OWNER_COVERS = ['repo_id', 'state', 'severity', 'classification', 'ecosystem', 'package_name', 'scope', 'relationship', 'has_patch', 'epss_percentage', 'version'];
const REPO_COVERS = ['state', 'severity', 'classification', 'ecosystem', 'package_name', 'manifest_path', 'scope', 'relationship', 'has_patch', 'epss_percentage', 'version'];
// As 20261123140000_widen_alert_list_indexes left them.
const OWNER_BEFORE = OWNER_COVERS.slice(0, -1);

interface ListIndex { name: string; keys: string[]; covers: string[] }

function listIndexes(owner: string[], repo: string[]): ListIndex[] {
  return SORTS.flatMap(([name, column]) => [
    { name: `dependency_alerts_owner_${name}_index`, keys: ['owner_id', column, 'id'], covers: owner },
    { name: `dependency_alerts_repo_${name}_index`, keys: ['repo_id', column, 'id'], covers: repo },
  ]);
}

/** What follows `CREATE INDEX name`: PostgreSQL carries the covered columns as INCLUDE (stored in the index, not ordered by). */
function definition({ keys, covers }: ListIndex, pg: boolean): string {
  if (!pg) return `ON dependency_alerts (${[...keys, ...covers].join(', ')})`;
  return `ON dependency_alerts (${keys.join(', ')})${covers.length ? ` INCLUDE (${covers.join(', ')})` : ''}`;
}

async function replace(knex: Knex, indexes: ListIndex[]): Promise<void> {
  const pg = knex.client.config.client === 'pg';
  if (pg && (await knex('dependency_alerts').first('id')) !== undefined) {
    for (const index of indexes) {
      const next = `${index.name}_next`;
      await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS ${next}`);
      await knex.raw(`CREATE INDEX CONCURRENTLY ${next} ${definition(index, pg)}`);
      await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS ${index.name}`);
      await knex.raw(`ALTER INDEX ${next} RENAME TO ${index.name}`);
    }
    return;
  }
  await knex.transaction(async (trx) => {
    for (const index of indexes) {
      await trx.raw(`DROP INDEX IF EXISTS ${index.name}`);
      await trx.raw(`CREATE INDEX ${index.name} ${definition(index, pg)}`);
    }
  });
}

export async function up(knex: Knex): Promise<void> {
  await replace(knex, listIndexes(OWNER_COVERS, REPO_COVERS));
}

export async function down(knex: Knex): Promise<void> {
  await replace(knex, listIndexes(OWNER_BEFORE, []));
}
