import type { Knex } from 'knex';

// How snapshots are kept, reshaped for a scan's write (a 2,000-package scan spent most of its
// time writing a row and three index entries per package, the (ecosystem, normalized_name)
// ones in ~2,000 scattered pages):
// - dependency_snapshot_manifests.packages: a manifest's resolved packages as one JSON array,
//   in the order sent, each `[key, package_url, purl_type, ecosystem, package_name, version,
//   scope, relationship, dependencies, metadata]` (ecosystem and version may be null). It
//   replaces the table dependency_snapshot_packages: a snapshot is read whole or not at all.
// - repository_dependencies: every repository's current dependencies that can match an advisory
//   (an advisory ecosystem and a version), one per (manifest path, package URL) of its merged
//   current set (reference.md Part 2), kept in step with its snapshots
//   (src/modules/alert-engine/dependency-index.store.ts): a scan writes only what changed since
//   the last; an advisory change finds repositories and versions through (ecosystem,
//   normalized_name). No data_versions trigger: no answer is built from it; the engine reads it
//   in its own write transactions, and it changes only with a snapshot, which moves the counters.

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
  // adjacent pages (the rows of one repository are scattered over its scans). PostgreSQL
  // limits an index entry to ~2.7 KB, which long names and paths could pass: repo_id alone.
  const repoColumns = knex.client.config.client === 'pg'
    ? ['repo_id']
    : ['repo_id', 'ecosystem', 'normalized_name', 'package_name', 'version', 'manifest_path', 'scope', 'relationship'];
  await knex.schema.alterTable(TABLE, (t) => {
    t.index(repoColumns, 'repository_dependencies_repo_index');
  });
  await fillRepositoryDependencies(knex);

  await knex.schema.alterTable('dependency_snapshot_manifests', (t) => {
    t.text('packages').notNullable().defaultTo('[]');
  });
  await movePackagesIntoManifests(knex);
  await knex.schema.dropTable('dependency_snapshot_packages');
  // SQLite drops a table's triggers with it; PostgreSQL keeps the function they called.
  if (knex.client.config.client === 'pg') await knex.raw('DROP FUNCTION data_versions_bump_dependency_snapshot_packages()');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.createTable('dependency_snapshot_packages', (t) => {
    t.increments('id').primary();
    t.integer('manifest_id').notNullable().references('id').inTable('dependency_snapshot_manifests').onDelete('CASCADE');
    t.string('package_key', 1024).notNullable();
    t.text('package_url').notNullable();
    t.string('purl_type', 64).notNullable();
    t.string('ecosystem', 20).nullable();
    t.string('package_name', 1024).notNullable();
    t.string('normalized_name', 1024).nullable();
    t.string('version', 255).nullable();
    t.string('scope', 20).notNullable();
    t.string('relationship', 20).notNullable();
    t.text('dependencies').notNullable().defaultTo('[]');
    t.text('metadata').notNullable().defaultTo('{}');
    t.index(['manifest_id'], 'dependency_snapshot_packages_manifest_index');
    t.index(['ecosystem', 'normalized_name'], 'dependency_snapshot_packages_package_index');
  });
  const manifests: Array<{ id: number; packages: string }> = await knex('dependency_snapshot_manifests').orderBy('id').select('id', 'packages');
  for (const manifest of manifests) {
    const rows = (JSON.parse(manifest.packages) as StoredArray[]).map(([key, url, purlType, ecosystem, name, version, scope, relationship, dependencies, metadata]) => ({
      manifest_id: manifest.id, package_key: key, package_url: url, purl_type: purlType, ecosystem, package_name: name,
      normalized_name: ecosystem === null ? null : normalizedName(ecosystem, name), version, scope, relationship,
      dependencies: JSON.stringify(dependencies), metadata: JSON.stringify(metadata),
    }));
    for (let i = 0; i < rows.length; i += 200) await knex('dependency_snapshot_packages').insert(rows.slice(i, i + 200));
  }
  if (knex.client.config.client === 'pg') {
    await knex.raw('CREATE FUNCTION data_versions_bump_dependency_snapshot_packages() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE data_versions SET data = data + 1 WHERE id = 1; RETURN NULL; END $$');
    await knex.raw('CREATE TRIGGER data_versions_bump_dependency_snapshot_packages AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON dependency_snapshot_packages FOR EACH STATEMENT EXECUTE FUNCTION data_versions_bump_dependency_snapshot_packages()');
  } else {
    for (const event of ['insert', 'update', 'delete']) {
      await knex.raw(`CREATE TRIGGER data_versions_${event}_dependency_snapshot_packages AFTER ${event.toUpperCase()} ON dependency_snapshot_packages BEGIN UPDATE data_versions SET data = data + 1 WHERE id = 1; END`);
    }
  }
  await knex.raw('ALTER TABLE dependency_snapshot_manifests DROP COLUMN packages');
  await knex.schema.dropTable(TABLE);
}

type StoredArray = [string, string, string, string | null, string, string | null, string, string, string[], Record<string, unknown>];

const ECOSYSTEMS = new Set(['composer', 'go', 'maven', 'npm', 'nuget', 'pip', 'pub', 'rubygems', 'rust']);

/** normalizePackageName as of this migration, frozen here (migrations never import src/). */
function normalizedName(ecosystem: string, name: string): string {
  const trimmed = name.trim();
  if (ecosystem === 'pip') return trimmed.toLowerCase().replace(/[-_.]+/g, '-');
  if (ecosystem === 'nuget' || ecosystem === 'composer') return trimmed.toLowerCase();
  return trimmed;
}

/** Manifests per step: a database of many snapshots is moved a bounded part at a time. */
const MANIFESTS_PER_STEP = 200;

async function movePackagesIntoManifests(knex: Knex): Promise<void> {
  let after = 0;
  for (;;) {
    const ids: number[] = (await knex('dependency_snapshot_manifests').where('id', '>', after).orderBy('id').limit(MANIFESTS_PER_STEP).pluck('id')).map(Number);
    if (ids.length === 0) return;
    const rows: Array<Record<string, any>> = await knex('dependency_snapshot_packages').whereIn('manifest_id', ids).orderBy(['manifest_id', 'id']).select();
    const byManifest = new Map<number, StoredArray[]>(ids.map((id) => [id, []]));
    for (const r of rows) {
      byManifest.get(Number(r.manifest_id))!.push([
        r.package_key, r.package_url, r.purl_type, r.ecosystem ?? null, r.package_name, r.version ?? null, r.scope, r.relationship, JSON.parse(r.dependencies), JSON.parse(r.metadata),
      ]);
    }
    for (const [id, packages] of byManifest) {
      if (packages.length > 0) await knex('dependency_snapshot_manifests').where('id', id).update({ packages: JSON.stringify(packages) });
    }
    after = ids.at(-1)!;
  }
}

/** The rows of the repositories that have current snapshots, merged as the engine merges them (as of this migration). */
async function fillRepositoryDependencies(knex: Knex): Promise<void> {
  const rows: Array<Record<string, any>> = await knex('repository_current_snapshots as c')
    .join('dependency_snapshot_manifests as m', 'm.snapshot_id', 'c.snapshot_id')
    .leftJoin('dependency_snapshot_packages as p', 'p.manifest_id', 'm.id')
    .orderBy([{ column: 'c.repo_id' }, { column: 'c.correlator' }, { column: 'c.detector_name' }, { column: 'm.id' }, { column: 'p.id' }])
    .select('c.repo_id', 'c.detector_name', 'm.name as manifest_name', 'm.source_location',
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
