import type { Knex } from 'knex';

// Two counters that move with every committed write, so caches in any number of instances
// know when what they hold may be stale (src/database/data-version.ts):
// - data: any table an answer is built from;
// - world: the tables cached JSON fragments are built from (accounts, repositories, advisories).
// Triggers bump them, so no write path (a service, the world loader, hand-written SQL) can
// forget to. rate_limit_counters is left out: every request writes there, no answer reads it.

export const WORLD_TABLES = ['accounts', 'repositories', 'advisories', 'advisory_vulnerabilities'];
export const DATA_TABLES = [
  ...WORLD_TABLES,
  'enterprises', 'enterprise_members', 'organizations', 'organization_members', 'organization_custom_properties',
  'teams', 'team_members', 'repository_collaborators', 'team_repositories', 'repository_custom_property_values',
  'repository_storage_records', 'repository_deployment_records', 'organization_roles', 'organization_role_users',
  'organization_role_teams', 'tokens', 'token_repositories', 'enterprise_oidc_property_inclusions',
  'organization_oidc_property_inclusions', 'organization_oidc_subject_templates', 'repository_oidc_subject_templates',
  'dependency_alerts', 'dependency_alert_assignees', 'attestations', 'attestation_subjects',
];

const bumpOf = (table: string) => (WORLD_TABLES.includes(table) ? 'data = data + 1, world = world + 1' : 'data = data + 1');

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('data_versions', (t) => {
    t.integer('id').primary();
    t.bigInteger('data').notNullable();
    t.bigInteger('world').notNullable();
  });
  await knex('data_versions').insert({ id: 1, data: 1, world: 1 });
  if (knex.client.config.client === 'pg') {
    // Statement-level: one bump per statement, however many rows it writes.
    for (const table of DATA_TABLES) {
      const fn = `data_versions_bump_${table}`;
      await knex.raw(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE data_versions SET ${bumpOf(table)} WHERE id = 1; RETURN NULL; END $$`);
      await knex.raw(`CREATE TRIGGER ${fn} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
    }
    return;
  }
  // SQLite has row-level triggers only.
  for (const table of DATA_TABLES) {
    for (const event of ['insert', 'update', 'delete']) {
      await knex.raw(`CREATE TRIGGER data_versions_${event}_${table} AFTER ${event.toUpperCase()} ON ${table} BEGIN UPDATE data_versions SET ${bumpOf(table)} WHERE id = 1; END`);
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') {
    for (const table of DATA_TABLES) {
      await knex.raw(`DROP TRIGGER IF EXISTS data_versions_bump_${table} ON ${table}`);
      await knex.raw(`DROP FUNCTION IF EXISTS data_versions_bump_${table}()`);
    }
  } else {
    for (const table of DATA_TABLES) {
      for (const event of ['insert', 'update', 'delete']) await knex.raw(`DROP TRIGGER IF EXISTS data_versions_${event}_${table}`);
    }
  }
  await knex.schema.dropTable('data_versions');
}
