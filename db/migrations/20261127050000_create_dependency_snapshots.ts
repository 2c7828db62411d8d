import type { Knex } from 'knex';

// Dependency snapshots (interfaces.md Part 2 "Dependency snapshots and computed alerts"):
// what repositories submit, kept whole, and which snapshot is current per (job.correlator,
// detector.name). The current dependency set is read by merging the current snapshots'
// manifests (reference.md Part 2), so nothing derived is stored twice.
// - repositories.default_branch: only snapshots of refs/heads/<default_branch> are applied.
//   Added, never rebuilt: SQLite rebuilds a table to change a column, which would drop its
//   data_versions triggers.
// - scanned: ISO 8601 in UTC with milliseconds (fixed width, so text order is time order).
// - dependency_snapshot_packages.ecosystem: null for purl types that never match an advisory.
// Every new table moves data_versions.data, as the tables of 20261123130000 do.

export const SNAPSHOT_TABLES = ['dependency_snapshots', 'dependency_snapshot_manifests', 'dependency_snapshot_packages', 'repository_current_snapshots'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('repositories', (t) => {
    t.string('default_branch', 255).notNullable().defaultTo('main');
  });
  await knex.schema.createTable('dependency_snapshots', (t) => {
    t.increments('id').primary();
    t.integer('repo_id').notNullable().references('id').inTable('repositories').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.string('job_id', 255).notNullable();
    t.string('correlator', 255).notNullable();
    t.text('job_html_url').nullable();
    t.string('sha', 40).notNullable();
    t.string('ref', 255).notNullable();
    t.string('detector_name', 255).notNullable();
    t.string('detector_version', 255).notNullable();
    t.text('detector_url').notNullable();
    t.string('scanned', 24).notNullable();
    t.text('metadata').notNullable().defaultTo('{}');
    t.string('result', 10).notNullable(); // SUCCESS | ACCEPTED, as answered
    t.string('created_at', 20).notNullable();
    t.index(['repo_id', 'correlator', 'detector_name'], 'dependency_snapshots_pair_index');
  });
  await knex.schema.createTable('dependency_snapshot_manifests', (t) => {
    t.increments('id').primary();
    t.integer('snapshot_id').notNullable().references('id').inTable('dependency_snapshots').onDelete('CASCADE');
    t.string('manifest_key', 1024).notNullable();
    t.string('name', 1024).notNullable();
    t.text('source_location').nullable();
    t.text('metadata').notNullable().defaultTo('{}');
    t.index(['snapshot_id'], 'dependency_snapshot_manifests_snapshot_index');
  });
  await knex.schema.createTable('dependency_snapshot_packages', (t) => {
    t.increments('id').primary();
    t.integer('manifest_id').notNullable().references('id').inTable('dependency_snapshot_manifests').onDelete('CASCADE');
    t.string('package_key', 1024).notNullable();
    t.text('package_url').notNullable();
    t.string('purl_type', 64).notNullable();
    t.string('ecosystem', 20).nullable();
    t.string('package_name', 1024).notNullable();
    t.string('version', 255).nullable();
    t.string('scope', 20).notNullable(); // runtime | development
    t.string('relationship', 20).notNullable(); // direct | indirect | unknown
    t.text('dependencies').notNullable().defaultTo('[]');
    t.text('metadata').notNullable().defaultTo('{}');
    t.index(['manifest_id'], 'dependency_snapshot_packages_manifest_index');
  });
  await knex.schema.createTable('repository_current_snapshots', (t) => {
    t.integer('repo_id').notNullable().references('id').inTable('repositories').onDelete('CASCADE');
    t.string('correlator', 255).notNullable();
    t.string('detector_name', 255).notNullable();
    t.integer('snapshot_id').notNullable().references('id').inTable('dependency_snapshots').onDelete('CASCADE');
    t.string('scanned', 24).notNullable();
    t.primary(['repo_id', 'correlator', 'detector_name']);
  });
  if (knex.client.config.client === 'pg') {
    for (const table of SNAPSHOT_TABLES) {
      const fn = `data_versions_bump_${table}`;
      await knex.raw(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE data_versions SET data = data + 1 WHERE id = 1; RETURN NULL; END $$`);
      await knex.raw(`CREATE TRIGGER ${fn} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
    }
    return;
  }
  for (const table of SNAPSHOT_TABLES) {
    for (const event of ['insert', 'update', 'delete']) {
      await knex.raw(`CREATE TRIGGER data_versions_${event}_${table} AFTER ${event.toUpperCase()} ON ${table} BEGIN UPDATE data_versions SET data = data + 1 WHERE id = 1; END`);
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') {
    for (const table of SNAPSHOT_TABLES) await knex.raw(`DROP FUNCTION IF EXISTS data_versions_bump_${table}() CASCADE`);
  }
  // SQLite drops a table's triggers with it.
  for (const table of [...SNAPSHOT_TABLES].reverse()) await knex.schema.dropTable(table);
  await knex.raw('ALTER TABLE repositories DROP COLUMN default_branch');
}
