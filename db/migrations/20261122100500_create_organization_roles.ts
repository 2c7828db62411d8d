import type { Knex } from 'knex';

// The predefined roles every organization has, with the ids our clients know
// (reference.md "Organization roles"). Frozen here: a migration never imports src/.
const PREDEFINED_AT = '2026-01-01T00:00:00Z';
const PREDEFINED_ROLES = [
  { id: 138, name: 'security_manager', base_role: 'read',
    description: 'Manage security policies, security alerts, and security configurations for the organization and all its repositories.',
    permissions: ['read_organization_security_alerts', 'write_organization_security_alerts', 'read_organization_security_configuration', 'write_organization_security_configuration'] },
  { id: 8132, name: 'all_repo_read', base_role: 'read', description: 'Grants read access to all repositories in the organization.', permissions: [] },
  { id: 8133, name: 'all_repo_triage', base_role: 'triage', description: 'Grants triage access to all repositories in the organization.', permissions: [] },
  { id: 8134, name: 'all_repo_write', base_role: 'write', description: 'Grants write access to all repositories in the organization.', permissions: [] },
  { id: 8135, name: 'all_repo_maintain', base_role: 'maintain', description: 'Grants maintenance access to all repositories in the organization.', permissions: [] },
  { id: 8136, name: 'all_repo_admin', base_role: 'admin', description: 'Grants admin access to all repositories in the organization.', permissions: [] },
  { id: 26237, name: 'ci_cd_admin', base_role: null,
    description: 'Manage Actions policies, runners, runner groups, secrets, variables and OIDC settings for the organization.',
    permissions: ['write_organization_actions_secrets', 'write_organization_actions_settings', 'write_organization_actions_variables', 'write_organization_runners_and_runner_groups', 'write_organization_oidc_settings'] },
  { id: 33679, name: 'app_manager', base_role: null,
    description: 'Manage every app registered with or installed on the organization.',
    permissions: ['write_organization_apps', 'read_organization_installed_apps'] },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('organization_roles', (t) => {
    t.increments('id').primary();
    t.integer('org_id').nullable().references('id').inTable('accounts').onDelete('CASCADE'); // null: predefined
    t.string('name', 100).notNullable();
    t.text('description').nullable();
    t.text('permissions').notNullable(); // JSON array of permission identifiers
    t.string('base_role', 20).nullable();
    t.string('source', 20).notNullable(); // Organization | Enterprise | Predefined
    t.string('created_at', 20).notNullable();
    t.string('updated_at', 20).notNullable();
    t.unique(['org_id', 'name'], { indexName: 'organization_roles_org_id_name_unique' });
  });
  await knex('organization_roles').insert(
    PREDEFINED_ROLES.map((r) => ({
      ...r, org_id: null, permissions: JSON.stringify(r.permissions), source: 'Predefined',
      created_at: PREDEFINED_AT, updated_at: PREDEFINED_AT,
    })),
  );
  // Dialect difference: explicit ids do not advance a PostgreSQL sequence (SQLite's
  // AUTOINCREMENT does), so custom roles would collide with the predefined ids.
  if (knex.client.config.client === 'pg') {
    await knex.raw("SELECT setval(pg_get_serial_sequence('organization_roles', 'id'), (SELECT MAX(id) FROM organization_roles))");
  }

  await knex.schema.createTable('organization_role_users', (t) => {
    t.integer('org_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.integer('role_id').notNullable().references('id').inTable('organization_roles').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('created_at', 20).notNullable();
    t.primary(['org_id', 'role_id', 'user_id']);
    t.index(['org_id', 'user_id'], 'organization_role_users_org_id_user_id_index');
  });
  await knex.schema.createTable('organization_role_teams', (t) => {
    t.integer('org_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.integer('role_id').notNullable().references('id').inTable('organization_roles').onDelete('CASCADE');
    t.integer('team_id').notNullable().references('id').inTable('teams').onDelete('CASCADE');
    t.string('created_at', 20).notNullable();
    t.primary(['org_id', 'role_id', 'team_id']);
    t.index(['team_id'], 'organization_role_teams_team_id_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('organization_role_teams');
  await knex.schema.dropTable('organization_role_users');
  await knex.schema.dropTable('organization_roles');
}
