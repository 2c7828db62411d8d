import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('repositories', (t) => {
    t.increments('id').primary();
    t.integer('owner_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('name_key', 100).notNullable(); // lower-cased: names match case-insensitively
    t.boolean('private').notNullable().defaultTo(false);
    t.text('description').nullable();
    t.boolean('fork').notNullable().defaultTo(false);
    t.string('created_at', 20).notNullable();
    t.string('updated_at', 20).notNullable();
    t.unique(['owner_id', 'name_key'], { indexName: 'repositories_owner_id_name_key_unique' });
  });
  await knex.schema.createTable('repository_collaborators', (t) => {
    t.integer('repo_id').notNullable().references('id').inTable('repositories').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('permission', 20).notNullable(); // read | triage | write | maintain | admin
    t.primary(['repo_id', 'user_id']);
    t.index(['user_id'], 'repository_collaborators_user_id_index');
  });
  await knex.schema.createTable('team_repositories', (t) => {
    t.integer('team_id').notNullable().references('id').inTable('teams').onDelete('CASCADE');
    t.integer('repo_id').notNullable().references('id').inTable('repositories').onDelete('CASCADE');
    t.string('permission', 20).notNullable();
    t.primary(['team_id', 'repo_id']);
    t.index(['repo_id'], 'team_repositories_repo_id_index');
  });
  await knex.schema.createTable('repository_custom_property_values', (t) => {
    t.integer('repo_id').notNullable().references('id').inTable('repositories').onDelete('CASCADE');
    t.string('name', 75).notNullable();
    t.text('value').notNullable(); // JSON: a string, a boolean-as-string or an array of strings
    t.primary(['repo_id', 'name']);
  });
  // Facts the organization alert filters match on (spec §4.4 artifact_registry*, runtime_risk).
  await knex.schema.createTable('repository_storage_records', (t) => {
    t.increments('id').primary();
    t.integer('repo_id').notNullable().references('id').inTable('repositories').onDelete('CASCADE');
    t.string('artifact_registry', 100).notNullable();
    t.string('artifact_registry_url', 2048).notNullable();
    t.index(['repo_id'], 'repository_storage_records_repo_id_index');
  });
  await knex.schema.createTable('repository_deployment_records', (t) => {
    t.increments('id').primary();
    t.integer('repo_id').notNullable().references('id').inTable('repositories').onDelete('CASCADE');
    t.string('name', 255).notNullable();
    t.text('runtime_risks').notNullable(); // JSON array of risk names
    t.index(['repo_id'], 'repository_deployment_records_repo_id_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('repository_deployment_records');
  await knex.schema.dropTable('repository_storage_records');
  await knex.schema.dropTable('repository_custom_property_values');
  await knex.schema.dropTable('team_repositories');
  await knex.schema.dropTable('repository_collaborators');
  await knex.schema.dropTable('repositories');
}
