import type { Knex } from 'knex';

// The current matchable dependencies of every repository, kept in step with its current
// snapshots (src/modules/alert-engine/dependency-index.store.ts): what "which repositories
// hold this package, and at which versions" reads when an advisory changes, through the
// (ecosystem, normalized_name) index.
// It replaces the (ecosystem, normalized_name) index on dependency_snapshot_packages: that one
// took an entry per package of every snapshot, each in a different index page, so a 2,000-
// package scan dirtied ~2,000 pages (most of its time went to writing them at COMMIT).
// Here a new scan writes only the dependencies that changed since the last one.
// Rows: only dependencies that can match (an advisory ecosystem and a version), one per
// (manifest path, package URL) of the merged current set (reference.md Part 2).
// No data_versions trigger: no answer is built from this table; the engine reads it in its
// own write transactions, and every change to it comes with a snapshot's, which moves the
// counters.

const TABLE = 'repository_dependencies';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable(TABLE, (t) => {
    t.increments('id').primary();
    t.integer('repo_id').notNullable().references('id').inTable('repositories').onDelete('CASCADE');
    t.string('ecosystem', 20).notNullable();
    t.string('normalized_name', 1024).notNullable();
    t.string('package_name', 1024).notNullable();
    t.string('version', 255).notNullable();
    t.string('manifest_path', 1024).notNullable();
    t.string('scope', 20).notNullable();
    t.string('relationship', 20).notNullable();
    t.index(['ecosystem', 'normalized_name'], 'repository_dependencies_package_index');
  });
  // A scan reads its repository's rows whole. SQLite: from an index holding every column, in
  // adjacent pages (the table's rows of one repository are scattered over its scans; reading
  // them through a repo_id index took ~10 ms for 2,000). PostgreSQL limits an index entry to
  // ~2.7 KB, which long names and paths could pass: a repo_id index there.
  const repoColumns = knex.client.config.client === 'pg'
    ? ['repo_id']
    : ['repo_id', 'ecosystem', 'normalized_name', 'package_name', 'version', 'manifest_path', 'scope', 'relationship'];
  await knex.schema.alterTable(TABLE, (t) => {
    t.index(repoColumns, 'repository_dependencies_repo_index');
  });
  await backfill(knex);
  await knex.raw('DROP INDEX dependency_snapshot_packages_package_index');
  await knex.raw('ALTER TABLE dependency_snapshot_packages DROP COLUMN normalized_name');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('dependency_snapshot_packages', (t) => {
    t.string('normalized_name', 1024).nullable();
  });
  await knex.raw(`UPDATE dependency_snapshot_packages SET normalized_name = (
    SELECT d.normalized_name FROM repository_dependencies d WHERE d.ecosystem = dependency_snapshot_packages.ecosystem AND d.package_name = dependency_snapshot_packages.package_name LIMIT 1)`);
  await knex.raw('UPDATE dependency_snapshot_packages SET normalized_name = package_name WHERE normalized_name IS NULL AND ecosystem IS NOT NULL');
  await knex.schema.alterTable('dependency_snapshot_packages', (t) => {
    t.index(['ecosystem', 'normalized_name'], 'dependency_snapshot_packages_package_index');
  });
  await knex.schema.dropTable(TABLE);
}

const ECOSYSTEMS = new Set(['composer', 'go', 'maven', 'npm', 'nuget', 'pip', 'pub', 'rubygems', 'rust']);

/** The rows of the repositories that have current snapshots, merged as the engine merges them (as of this migration). */
async function backfill(knex: Knex): Promise<void> {
  const rows: Array<Record<string, any>> = await knex('repository_current_snapshots as c')
    .join('dependency_snapshot_manifests as m', 'm.snapshot_id', 'c.snapshot_id')
    .leftJoin('dependency_snapshot_packages as p', 'p.manifest_id', 'm.id')
    .orderBy([{ column: 'c.repo_id' }, { column: 'c.correlator' }, { column: 'c.detector_name' }, { column: 'm.id' }, { column: 'p.id' }])
    .select('c.repo_id', 'c.correlator', 'c.detector_name', 'm.name as manifest_name', 'm.source_location',
      'p.id', 'p.package_url', 'p.ecosystem', 'p.package_name', 'p.normalized_name', 'p.version', 'p.scope', 'p.relationship');
  let repoId: number | undefined;
  let owners = new Map<string, { detector: string; path: string; urls: Set<string> }>();
  const out: Array<Record<string, unknown>> = [];
  for (const row of rows) {
    if (row.repo_id !== repoId) {
      repoId = row.repo_id;
      owners = new Map();
    }
    let owner = owners.get(row.manifest_name);
    if (owner === undefined) {
      owner = { detector: row.detector_name, path: row.source_location ?? row.manifest_name, urls: new Set() };
      owners.set(row.manifest_name, owner);
    } else if (owner.detector !== row.detector_name) {
      continue;
    }
    if (row.id === null || owner.urls.has(row.package_url)) continue;
    owner.urls.add(row.package_url);
    if (row.version === null || !ECOSYSTEMS.has(row.ecosystem)) continue;
    out.push({
      repo_id: row.repo_id, ecosystem: row.ecosystem, normalized_name: row.normalized_name, package_name: row.package_name, version: row.version,
      manifest_path: owner.path, scope: row.scope, relationship: row.relationship,
    });
  }
  for (let i = 0; i < out.length; i += 500) await knex(TABLE).insert(out.slice(i, i + 500));
}
