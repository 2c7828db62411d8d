import type { Knex } from 'knex';

// The alert engine (interfaces.md Part 2 "Dependency snapshots and computed alerts"):
// dependency_alerts:
// - vulnerability_id: the advisory_vulnerabilities row the dependency matched (the alert's
//   `security_vulnerability`); null on alerts a world file declared and no snapshot matched
//   yet. No foreign key: an advisory update replaces its rows, and the re-evaluation in the
//   same transaction points the alert at the new one.
// - auto_dismissed_by: why an auto_dismissed alert is so: rule | preset | withdrawal; null when
//   a world file declared it (the engine then does not know, and does not undo it).
// - a unique index on what makes an alert the same finding (advisory, package, manifest) over
//   the alerts the engine keeps (vulnerability_id set): world files may declare one finding
//   twice under two numbers, which the engine never does.
// dependency_snapshot_packages.normalized_name: the package name normalized per ecosystem (the
//   version engine's normalizePackageName), indexed with ecosystem so "which repositories hold
//   this package" is an index look-up when an advisory changes.
// repository_current_snapshots.snapshot_id: indexed, for the same look-up.
// events: the outbox of webhook events (issue 22 delivers them): one row per alert transition,
//   written in the changing transaction, with the alert as #26 serialized it at that moment.
//   sender_id null: the engine's bot (dependency-bot[bot]).
// Columns are added, never rebuilt (SQLite would drop a rebuilt table's data_versions triggers).

export const ENGINE_TABLES = ['events'];

/** normalizePackageName as of this migration, frozen here (migrations never import src/). */
function normalizedName(ecosystem: string, name: string): string {
  const trimmed = name.trim();
  if (ecosystem === 'pip') return trimmed.toLowerCase().replace(/[-_.]+/g, '-');
  if (ecosystem === 'nuget' || ecosystem === 'composer') return trimmed.toLowerCase();
  return trimmed;
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('dependency_alerts', (t) => {
    t.integer('vulnerability_id').nullable();
    t.string('auto_dismissed_by', 20).nullable();
  });
  await knex.raw(
    'CREATE UNIQUE INDEX dependency_alerts_finding_unique ON dependency_alerts (repo_id, advisory_id, ecosystem, package_name, manifest_path) WHERE vulnerability_id IS NOT NULL',
  );
  await knex.schema.alterTable('dependency_snapshot_packages', (t) => {
    t.string('normalized_name', 1024).nullable();
  });
  const rows: Array<{ id: number; ecosystem: string; package_name: string }> = await knex('dependency_snapshot_packages').whereNotNull('ecosystem').select('id', 'ecosystem', 'package_name');
  for (const row of rows) await knex('dependency_snapshot_packages').where('id', row.id).update({ normalized_name: normalizedName(row.ecosystem, row.package_name) });
  await knex.schema.alterTable('dependency_snapshot_packages', (t) => {
    t.index(['ecosystem', 'normalized_name'], 'dependency_snapshot_packages_package_index');
  });
  await knex.schema.alterTable('repository_current_snapshots', (t) => {
    t.index(['snapshot_id'], 'repository_current_snapshots_snapshot_index');
  });
  await knex.schema.createTable('events', (t) => {
    t.bigIncrements('id').primary();
    t.string('event', 40).notNullable(); // dependency_bot_alert
    t.string('action', 40).notNullable();
    t.integer('repo_id').nullable();
    t.integer('org_id').nullable();
    t.integer('alert_id').nullable();
    t.integer('sender_id').nullable();
    t.string('created_at', 20).notNullable();
    t.text('payload').notNullable(); // JSON: {"alert": …}
    t.index(['repo_id', 'id'], 'events_repo_index');
  });
  if (knex.client.config.client === 'pg') {
    await knex.raw('CREATE FUNCTION data_versions_bump_events() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE data_versions SET data = data + 1 WHERE id = 1; RETURN NULL; END $$');
    await knex.raw('CREATE TRIGGER data_versions_bump_events AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON events FOR EACH STATEMENT EXECUTE FUNCTION data_versions_bump_events()');
    return;
  }
  for (const event of ['insert', 'update', 'delete']) {
    await knex.raw(`CREATE TRIGGER data_versions_${event}_events AFTER ${event.toUpperCase()} ON events BEGIN UPDATE data_versions SET data = data + 1 WHERE id = 1; END`);
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') await knex.raw('DROP FUNCTION IF EXISTS data_versions_bump_events() CASCADE');
  await knex.schema.dropTable('events');
  await knex.raw('DROP INDEX repository_current_snapshots_snapshot_index');
  await knex.raw('DROP INDEX dependency_snapshot_packages_package_index');
  await knex.raw('ALTER TABLE dependency_snapshot_packages DROP COLUMN normalized_name');
  await knex.raw('DROP INDEX dependency_alerts_finding_unique');
  for (const column of ['vulnerability_id', 'auto_dismissed_by']) await knex.raw(`ALTER TABLE dependency_alerts DROP COLUMN ${column}`);
}
