import type { Knex } from 'knex';

// Which manifests a repository's applied snapshots have covered (issue 40; interfaces.md Part 2,
// "a snapshot settles only the alerts of the manifests it covers"): one row per (repository,
// manifest path), the path as alerts name it (`file.source_location`, else the manifest's name).
// The alert engine fixes an alert it finds no dependency for only when its manifest path is
// here (upgraded, removed, or the manifest gone); an alert of a manifest no applied snapshot
// covered stays as a world file declared it. Written by the engine under the repository's
// lock, in the snapshot's transaction, so no two rows name one path (no unique index:
// PostgreSQL limits an index entry to ~2.7 KB, which a 1,024-character path could pass).
// Filled here from the snapshots applied so far (`result` SUCCESS: answered applied).
// No data_versions trigger: no answer is built from it; it changes only with a snapshot,
// which moves the counters.

const TABLE = 'repository_covered_manifests';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable(TABLE, (t) => {
    t.increments('id').primary();
    t.integer('repo_id').notNullable().references('id').inTable('repositories').onDelete('CASCADE');
    t.string('manifest_path', 1024).notNullable();
    t.index(['repo_id'], 'repository_covered_manifests_repo_index');
  });
  await knex.raw(
    `INSERT INTO ${TABLE} (repo_id, manifest_path)
     SELECT DISTINCT s.repo_id, COALESCE(m.source_location, m.name)
     FROM dependency_snapshots s JOIN dependency_snapshot_manifests m ON m.snapshot_id = s.id
     WHERE s.result = 'SUCCESS'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable(TABLE);
}
